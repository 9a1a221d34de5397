import ResponderChain
import Testing

@Suite struct ImageSourceTests {
    @Test("a file's format comes from its extension; it holds no bytes")
    func file() {
        #expect(ImageSource(file: "/usr/share/riverside/Logo.SVG").format == .svg)
        #expect(ImageSource(file: "photo.png").format == .png)
        #expect(ImageSource(file: "photo").format == .png)
        let logo = ImageSource(file: "logo.svg")
        #expect(logo.data == nil && !logo.isInMemory)
        #expect(logo.description == "logo.svg")
    }

    @Test("an image in memory keeps its bytes, its format and its name")
    func inMemory() {
        let svg = ImageSource(svg: "<svg/>", name: "empty.svg")
        #expect(svg.format == .svg && svg.isInMemory)
        #expect(svg.data == Array("<svg/>".utf8))
        #expect(svg.path == "empty.svg")
        #expect(svg.description == "empty.svg (in memory)")
        let png = ImageSource(png: [0x89, 0x50], name: "dot.png")
        #expect(png.format == .png && png.data == [0x89, 0x50])
    }

    @Test("equal by name and content: the same bytes under the same name are one image for every cache")
    func equality() {
        let a = ImageSource(svg: "<svg width='1'/>", name: "icon")
        let b = ImageSource(svg: "<svg width='1'/>", name: "icon")
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
        #expect(a != ImageSource(svg: "<svg width='2'/>", name: "icon"), "other bytes")
        #expect(a != ImageSource(svg: "<svg width='1'/>", name: "other"), "another name")
        #expect(a != ImageSource(data: Array("<svg width='1'/>".utf8), format: .png, name: "icon"), "another format")
        #expect(ImageSource(file: "icon", format: .svg) != a, "a file of that name is not the image in memory")
    }
}
