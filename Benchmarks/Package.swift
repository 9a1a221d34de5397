// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "ResponderChainBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "ResponderChain", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "ResponderChainBenchmarks",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "KeytraceKit", package: "ResponderChain"),
                .product(name: "DispatchTrace", package: "ResponderChain"),
                .product(name: "LinuxKeyboard", package: "ResponderChain"),
                .product(name: "TerminalCanvas", package: "ResponderChain"),
                .product(name: "PixelCanvas", package: "ResponderChain"),
                .product(name: "CairoGraphics", package: "ResponderChain"),
                .product(name: "Graphics", package: "ResponderChain"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/ResponderChainBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ]
)
