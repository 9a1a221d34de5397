/// The scene keytrace shows without `--scene`: the Reminders window from WWDC's "Focus on iPad
/// keyboard navigation" session, with the cases worth watching.
///
/// - a search field and two text fields, one of them secure (its characters show as `•`);
/// - a lists sidebar that is a focus group, whose Return command (Rename List) has
///   `wantsPriorityOverSystemBehavior`, so it beats the select key;
/// - a reminders list that is a focus group, whose Tab and Shift-Tab commands (Indent, Outdent)
///   collide with the focus keys and lose to them, while Cmd-] and Cmd-[ still reach them;
/// - reminders that take Space in `pressesBegan` themselves (toggle done);
/// - global Ctrl-N and Ctrl-F commands.
public enum DemoScene {
    /// The file name errors and traces use for the demo.
    public static let fileName = "demo-scene.json"

    /// The scene, in the scene format (`keytrace --print-demo-scene` prints it).
    public static let json = """
        {
          "name": "Reminders (keytrace demo)",
          "globalKeyCommands": [
            { "shortcut": "ctrl+n", "action": "newReminder", "title": "New Reminder" },
            { "shortcut": "ctrl+f", "action": "find", "title": "Find" }
          ],
          "root": {
            "id": "window", "frame": [0, 0, 1000, 700], "firstResponder": true,
            "actions": ["newReminder", "find"], "preferredFocus": ["search"],
            "children": [
              { "id": "search", "kind": "textInput", "frame": [10, 10, 280, 40] },
              {
                "id": "lists", "frame": [0, 60, 300, 640], "groupKind": "container", "selectionFollowsFocus": true,
                "actions": ["renameList", "showList"],
                "keyCommands": [
                  { "shortcut": "return", "action": "renameList", "title": "Rename List",
                    "wantsPriorityOverSystemBehavior": true }
                ],
                "children": [
                  { "id": "today", "frame": [10, 70, 280, 60], "focusable": true, "interactions": ["activate"],
                    "primaryAction": "showList" },
                  { "id": "scheduled", "frame": [10, 140, 280, 60], "focusable": true, "interactions": ["activate"],
                    "primaryAction": "showList" },
                  { "id": "all", "frame": [10, 210, 280, 60], "focusable": true, "interactions": ["activate"],
                    "primaryAction": "showList" },
                  { "id": "flagged", "frame": [10, 280, 280, 60], "focusable": true, "interactions": ["activate"],
                    "primaryAction": "showList" }
                ]
              },
              {
                "id": "reminders", "frame": [310, 10, 680, 470], "groupKind": "container",
                "actions": ["indent", "outdent", "editReminder"],
                "keyCommands": [
                  { "shortcut": "tab", "action": "indent", "title": "Indent" },
                  { "shortcut": "shift+tab", "action": "outdent", "title": "Outdent" },
                  { "shortcut": "cmd+]", "action": "indent", "title": "Indent" },
                  { "shortcut": "cmd+[", "action": "outdent", "title": "Outdent" }
                ],
                "children": [
                  { "id": "buyMilk", "frame": [320, 20, 660, 60], "focusable": true, "interactions": ["activate"],
                    "primaryAction": "editReminder", "handlesKeys": ["space"] },
                  { "id": "callMom", "frame": [320, 90, 660, 60], "focusable": true, "interactions": ["activate"],
                    "primaryAction": "editReminder", "handlesKeys": ["space"] },
                  { "id": "fileTaxes", "frame": [320, 160, 660, 60], "focusable": true, "interactions": ["activate"],
                    "primaryAction": "editReminder", "handlesKeys": ["space"] }
                ]
              },
              {
                "id": "details", "frame": [310, 490, 680, 200],
                "children": [
                  { "id": "notes", "kind": "textInput", "frame": [320, 500, 660, 80] },
                  { "id": "passcode", "kind": "textInput", "secure": true, "frame": [320, 600, 660, 80] }
                ]
              }
            ]
          }
        }
        """
}
