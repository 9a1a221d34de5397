/// The words of the kiosk's graphical face in one language: the header, the headings, the labels
/// and titles of its widgets, and what it says (``sentences``). The terminal face keeps its own
/// English labels and says ``KioskSentences/english``.
struct KioskLanguage: Sendable {
    var clinic: String
    var tagline: String
    /// A welcome in several languages under the title (Chinese through the fallback font).
    var greeting: String
    var menu: String
    var homeHeading: String
    var directoryHeading: String
    var checkInHeading: String
    var checkInIntro: String
    /// At the foot of the menu.
    var menuNote: String
    /// Each screen's name in the menu.
    var screens: [Kiosk.Screen: String]
    /// Each tile's title and subtitle, by the tile's identifier (`checkin`, `find`…).
    var tiles: [String: (title: String, subtitle: String)]
    var nameLabel: String
    var namePlaceholder: String
    var pinLabel: String
    var pinPlaceholder: String
    var consent: String
    var submit: String
    var cancel: String
    var dialogTitle: String
    var helpHeading: String
    var helpHint: String
    var close: String
    var searchLabel: String
    var searchPlaceholder: String
    var directoryHint: String
    /// What F1 does, at the end of the message line.
    var help: String
    /// Before a room's number.
    var room: String
    /// The welcome on the message line.
    var welcome: String
    /// How many rows match: "240 people and places".
    var count: @Sendable (Int) -> String
    /// Whether the language runs right to left.
    var isRightToLeft: Bool
    /// What the kiosk says: its messages and dialogs.
    var sentences: KioskSentences

    /// English, as the terminal face says it.
    static let english = KioskLanguage(
        clinic: "Riverside Clinic", tagline: "Self-service check-in",
        greeting: "Welcome · Bienvenue · Willkommen · 欢迎 · Witamy", menu: "Menu",
        homeHeading: "How can we help you today?", directoryHeading: "Directory",
        checkInHeading: "Check in for today's appointment",
        checkInIntro: "Your PIN is on your appointment letter. Check in up to 30 minutes before your time.",
        menuNote: "Need a hand? Ask us at the reception desk.",
        screens: [.home: "Home", .directory: "Directory", .checkIn: "Check in"],
        tiles: [
            "checkin": ("Check in", "appointments"), "find": ("Directory", "people, rooms"),
            "hours": ("Opening hours", "this week"), "pharmacy": ("Pharmacy", "prescriptions"),
            "parking": ("Parking", "tickets"), "help": ("Help", "the keys, F1"),
        ],
        nameLabel: "Name", namePlaceholder: "As on your appointment letter", pinLabel: "PIN",
        pinPlaceholder: "4–6 digits", consent: "I agree to be called by name in the waiting room",
        submit: "Check in", cancel: "Cancel", dialogTitle: "Please confirm",
        helpHeading: "Keys you can use here", helpHint: "Escape or F1 closes", close: "Close",
        searchLabel: "Search", searchPlaceholder: "Search by name, department or room",
        directoryHint: "Up and Down move · Home and End jump", help: "Help", room: "Room",
        welcome: "Welcome. Choose a tile with the arrows and Return; F1 shows the keys.",
        count: { "\($0) people and places" }, isRightToLeft: false, sentences: .english)

    /// Hebrew: the screen mirrored, right to left.
    static let hebrew = KioskLanguage(
        clinic: "מרפאת ריברסייד", tagline: "צ׳ק־אין בשירות עצמי",
        greeting: "ברוכים הבאים · Welcome · 欢迎 · أهلاً", menu: "תפריט",
        homeHeading: "במה נוכל לעזור היום?", directoryHeading: "מדריך",
        checkInHeading: "צ׳ק־אין לתור של היום",
        checkInIntro: "הקוד מופיע במכתב הזימון שלך. אפשר לבצע צ׳ק־אין עד 30 דקות לפני התור.",
        menuNote: "צריכים עזרה? פנו אלינו בדלפק הקבלה.",
        screens: [.home: "בית", .directory: "מדריך", .checkIn: "צ׳ק־אין"],
        tiles: [
            "checkin": ("צ׳ק־אין", "תורים"), "find": ("מדריך", "אנשים, חדרים"),
            "hours": ("שעות פתיחה", "השבוע"), "pharmacy": ("בית מרקחת", "מרשמים"),
            "parking": ("חניה", "כרטיסים"), "help": ("עזרה", "המקשים, F1"),
        ],
        nameLabel: "שם", namePlaceholder: "כפי שמופיע במכתב הזימון", pinLabel: "קוד",
        pinPlaceholder: "4–6 ספרות", consent: "אני מסכים/ה שיקראו לי בשמי בחדר ההמתנה",
        submit: "צ׳ק־אין", cancel: "ביטול", dialogTitle: "נא לאשר",
        helpHeading: "מקשים שאפשר להשתמש בהם כאן", helpHint: "Escape או F1 סוגרים", close: "סגירה",
        searchLabel: "חיפוש", searchPlaceholder: "חיפוש לפי שם, מחלקה או חדר",
        directoryHint: "למעלה ולמטה זזים · Home ו־End קופצים", help: "עזרה", room: "חדר",
        welcome: "ברוכים הבאים. בחרו אריח במגע או בחצים וב־Return.",
        count: { "\($0) אנשים ומקומות" }, isRightToLeft: true, sentences: .hebrew)
}
