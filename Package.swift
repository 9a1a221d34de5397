// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ResponderChain",
    products: [
        .library(name: "ResponderChain", targets: ["ResponderChain"]),
        .library(name: "ResponderChainTesting", targets: ["ResponderChainTesting"]),
    ],
    targets: [
        .target(name: "ResponderChain"),
        .target(name: "ResponderChainTesting", dependencies: ["ResponderChain"]),
        .testTarget(name: "ResponderChainTests", dependencies: ["ResponderChain", "ResponderChainTesting"]),
        .testTarget(name: "ResponderChainTestingTests", dependencies: ["ResponderChain", "ResponderChainTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
