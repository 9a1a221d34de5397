/// One person or place in the clinic's directory.
struct DirectoryEntry: Sendable {
    let name: String
    let department: String
    let room: String

    /// What a search matches and a row shows.
    var line: String { "\(name) · \(department) · room \(room)" }
    /// What a screen reader says for its row.
    var spoken: String { "\(name), \(department), room \(room)" }

    /// 240 entries, always the same ones: staff over twelve departments.
    static let all: [DirectoryEntry] = {
        let first = [
            "Ada", "Ben", "Chloé", "Dara", "Emil", "Farah", "Gus", "Hana", "Ivo", "Jun", "Kofi", "Lena", "Mira",
            "Nils", "Omar", "Pia", "Quinn", "Rosa", "Sami", "Tove",
        ]
        let last = [
            "Adler", "Brandt", "Costa", "Dahl", "Evans", "Fischer", "Garcia", "Holm", "Ito", "Jansen", "Kim",
            "Lund",
        ]
        let departments = [
            "Cardiology", "Dermatology", "Family medicine", "Imaging", "Laboratory", "Neurology", "Oncology",
            "Orthopaedics", "Paediatrics", "Pharmacy", "Physiotherapy", "Reception",
        ]
        var entries: [DirectoryEntry] = []
        for index in 0..<240 {
            let name = "\(first[index % first.count]) \(last[(index / first.count) % last.count])"
            let department = departments[(index * 5 + index / 7) % departments.count]
            let room = "\(1 + index % 4)\(String(format2: (index * 7) % 60 + 1))"
            entries.append(DirectoryEntry(name: name, department: department, room: room))
        }
        return entries.sorted { $0.name < $1.name }
    }()
}

extension String {
    /// Two digits, with a leading zero.
    init(format2 value: Int) {
        self = value < 10 ? "0\(value)" : "\(value)"
    }
}
