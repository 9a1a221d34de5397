import Testing

@testable import CairoGraphics

@Suite struct LRUCacheTests {
    @Test("the least recently used entries go first, until the costs fit")
    func eviction() {
        var cache = LRUCache<String, Int>(costLimit: 10)
        cache.insert(1, for: "a", cost: 4)
        cache.insert(2, for: "b", cost: 4)
        #expect(cache.value(for: "a") == 1)  // a is now newer than b
        cache.insert(3, for: "c", cost: 4)
        #expect(!cache.contains("b") && cache.contains("a") && cache.contains("c"))
        #expect(cache.totalCost == 8 && cache.evictions == 1)
        cache.insert(4, for: "d", cost: 10)
        #expect(cache.count == 1 && cache.value(for: "d") == 4)
        let kept = cache.insert(5, for: "e", cost: 11)
        #expect(!kept, "more than the limit alone is not kept")
        cache.insert(6, for: "d", cost: 1)
        #expect(cache.value(for: "d") == 6 && cache.totalCost == 1)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
    }

    @Test("slots are reused: many insertions keep the cache at its limit")
    func churn() {
        var cache = LRUCache<Int, Int>(costLimit: 16)
        for number in 0..<1000 {
            cache.insert(number, for: number)
            if number % 3 == 0 { _ = cache.value(for: number - 10) }
        }
        #expect(cache.count == 16)
        #expect(cache.value(for: 999) == 999 && cache.value(for: 900) == nil)
    }
}
