/// What the kiosk says in one language: its message line, its announcements and its dialogs (the
/// graphical face's; the terminal face says ``english``).
struct KioskSentences: Sendable {
    /// A search that matches nothing, with the search's text.
    var noMatch: @Sendable (String) -> String
    /// How many rows a search shows, said on the way to them.
    var results: @Sendable (Int) -> String
    /// The message line while searching: matches, of how many, the search's text.
    var searchCount: @Sendable (Int, Int, String) -> String
    /// The search field's value for a listener: the search's text, matches, of how many.
    var searchValue: @Sendable (String, Int, Int) -> String
    /// The form sent without a name.
    var nameFirst: String
    /// The form sent with a PIN too short.
    var pinDigits: String
    /// The form sent without the consent ticked.
    var consentNeeded: String
    /// The message line under the confirmation dialog.
    var confirmOrCancel: String
    /// The confirmation dialog's question, with the name typed.
    var confirmCheckIn: @Sendable (String) -> String
    /// After confirming, with the name typed.
    var checkedIn: @Sendable (String) -> String
    /// The opening hours tile's notice.
    var hours: String
    /// The pharmacy tile's notice.
    var pharmacy: String
    /// The parking tile's notice.
    var parking: String
    /// The dialog's button that confirms a check-in.
    var confirm: String
    /// The dialog's button that closes a notice.
    var ok: String

    /// English, as the terminal face says it.
    static let english = KioskSentences(
        noMatch: { "No one matches \"\($0)\"." }, results: { "\($0) result\($0 == 1 ? "" : "s")" },
        searchCount: { "\($0) of \($1) match \"\($2)\"; Down goes to the results." },
        searchValue: { "\($0), \($1) of \($2) match" }, nameFirst: "Type your name first.",
        pinDigits: "Your PIN has 4 to 6 digits (Num Lock is on: the keypad types them).",
        consentNeeded: "Tick the box to agree to be called by name.",
        confirmOrCancel: "Confirm, or Cancel to change something.", confirmCheckIn: { "Check in as \($0)?" },
        checkedIn: { "Checked in: \($0). Please take a seat; we will call you." },
        hours: "Open 7:30–19:00 Monday to Friday, 9:00–13:00 on Saturday.",
        pharmacy: "The pharmacy is on the ground floor, next to the main entrance.",
        parking: "Validate your ticket at the reception desk.", confirm: "Confirm", ok: "OK")

    /// Hebrew.
    static let hebrew = KioskSentences(
        noMatch: { "אין התאמות ל־\"\($0)\"." }, results: { $0 == 1 ? "תוצאה אחת" : "\($0) תוצאות" },
        searchCount: { "\($0) מתוך \($1) תואמים ל־\"\($2)\"; החץ למטה מעביר לתוצאות." },
        searchValue: { "\($0), \($1) מתוך \($2) תואמים" }, nameFirst: "נא להקליד קודם את השם.",
        pinDigits: "הקוד בן 4 עד 6 ספרות (Num Lock פעיל: אפשר להקליד אותן במקלדת המספרים).",
        consentNeeded: "נא לסמן את התיבה כדי להסכים שיקראו לך בשמך.",
        confirmOrCancel: "לחצו על ״אישור״, או על ״ביטול״ כדי לשנות פרטים.",
        confirmCheckIn: { "לבצע צ׳ק־אין בשם \($0)?" },
        checkedIn: { "בוצע צ׳ק־אין: \($0). אפשר לשבת, אנחנו נקרא לך." },
        hours: "המרפאה פתוחה בימים שני עד שישי 7:30–19:00, ובשבת 9:00–13:00.",
        pharmacy: "בית המרקחת בקומת הקרקע, ליד הכניסה הראשית.",
        parking: "את כרטיס החניה מאשרים בדלפק הקבלה.", confirm: "אישור", ok: "אישור")
}
