import Graphics
import ResponderChain
import ResponderChainTesting
import Testing

@testable import KioskExample

/// What the kiosk says, in its graphical face's language: the Hebrew face's messages and dialogs
/// were English (the snapshot of its dialog set a Hebrew question by hand).
@MainActor
@Suite struct KioskSentencesTests {
    /// Focuses a node and presses Return on it, as a person with a keyboard sends the form.
    private func press(_ node: FocusNode, in kiosk: GraphicalKiosk) {
        _ = kiosk.app.focusSystem.requestFocus(on: node)
        kiosk.app.focusSystem.updateFocusIfNeeded()
        kiosk.app.keyboard.tap("return")
    }

    @Test("the Hebrew face says the form's checks, its question and the check-in in Hebrew")
    func hebrewForm() {
        let kiosk = GraphicalKiosk(rightToLeft: true, hardwareKeyboard: true)
        let hebrew = KioskSentences.hebrew
        kiosk.kiosk.show(.checkIn)
        press(kiosk.kiosk.submit, in: kiosk)
        #expect(kiosk.kiosk.message == hebrew.nameFirst)
        kiosk.kiosk.nameField.text = "עדה"
        press(kiosk.kiosk.submit, in: kiosk)
        #expect(kiosk.kiosk.message == hebrew.pinDigits)
        kiosk.kiosk.pinField.text = "4721"
        press(kiosk.kiosk.submit, in: kiosk)
        #expect(kiosk.kiosk.message == hebrew.consentNeeded)
        kiosk.kiosk.consent.isChecked = true
        press(kiosk.kiosk.submit, in: kiosk)
        #expect(kiosk.kiosk.dialogText == "לבצע צ׳ק־אין בשם עדה?")
        #expect(kiosk.kiosk.confirm.title == "אישור")
        #expect(kiosk.kiosk.message == hebrew.confirmOrCancel)
        press(kiosk.kiosk.confirm, in: kiosk)
        #expect(kiosk.kiosk.message == "בוצע צ׳ק־אין: עדה. אפשר לשבת, אנחנו נקרא לך.")
        #expect(kiosk.kiosk.dialog.isHidden)
    }

    @Test("the Hebrew face's search counts, and says what matches nothing, in Hebrew")
    func hebrewSearch() {
        let kiosk = GraphicalKiosk(rightToLeft: true, hardwareKeyboard: true)
        kiosk.app.keyboard.type("ctrl+f a n")
        let matches = kiosk.kiosk.rows.count { !$0.isHidden }
        #expect(matches > 0 && matches < kiosk.kiosk.rows.count)
        let total = kiosk.kiosk.rows.count
        #expect(kiosk.kiosk.message == "\(matches) מתוך \(total) תואמים ל־\"an\"; החץ למטה מעביר לתוצאות.")
        #expect(kiosk.kiosk.search.accessibilityValue == "an, \(matches) מתוך \(total) תואמים")
        kiosk.app.keyboard.type("q q q down")
        #expect(kiosk.kiosk.message == "אין התאמות ל־\"anqqq\".")
    }

    @Test("a tile's notice in the Hebrew face is Hebrew, closed by a Hebrew button")
    func hebrewNotice() {
        let kiosk = GraphicalKiosk(rightToLeft: true, hardwareKeyboard: true)
        let pharmacy = kiosk.kiosk.tiles.first { $0.tileName == "pharmacy" }!
        press(pharmacy, in: kiosk)
        #expect(kiosk.kiosk.dialogText == KioskSentences.hebrew.pharmacy)
        #expect(kiosk.kiosk.confirm.title == "אישור")
    }

    @Test("the snapshot's Hebrew dialog is the kiosk's own question; the English face and the terminal say English")
    func dialogs() {
        let hebrew = KioskStage(KioskSnapshotRequest(path: "", screen: .dialog, rightToLeft: true))
        #expect(hebrew.kiosk.dialogText == "לבצע צ׳ק־אין בשם עדה לאבלייס?")
        let english = KioskStage(KioskSnapshotRequest(path: "", screen: .dialog))
        #expect(english.kiosk.dialogText == "Check in as Ada Lovelace?")
        #expect(english.kiosk.message == "Confirm, or Cancel to change something.")
        #expect(Kiosk().sentences.nameFirst == "Type your name first.", "the terminal face")
    }
}
