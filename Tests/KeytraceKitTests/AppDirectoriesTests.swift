import Foundation
import Inspection
import KeytraceKit
import Testing

/// Where keytrace looks for apps, and what it makes of a socket there.
@MainActor @Suite struct AppDirectoriesTests {
    @Test("the user's folders: the runtime directory's and /tmp/responderchain-UID; a given runtime directory alone")
    func standardFolders() {
        #expect(
            AppDirectories.standard(runtimeDirectory: nil, environment: "/run/user/1000", userID: 1000).paths == [
                "/run/user/1000/responderchain", "/tmp/responderchain-1000",
            ])
        #expect(
            AppDirectories.standard(runtimeDirectory: nil, environment: nil, userID: 1000).paths == [
                "/tmp/responderchain-1000"
            ])
        let given = AppDirectories.standard(runtimeDirectory: "/tmp/rt", environment: "/run/user/1000", userID: 0)
        #expect(given.paths == ["/tmp/rt/responderchain"] && given.description == "/tmp/rt/responderchain")
    }

    @Test("as root, its own folder first, then every user's; the message names the patterns")
    func rootSearchesEveryUser() {
        let folders = AppDirectories.standard(runtimeDirectory: nil, environment: "/run/user/0", userID: 0)
        #expect(folders.paths.first == "/run/user/0/responderchain")
        #expect(Set(folders.paths).count == folders.paths.count, "no folder twice")
        for path in folders.paths.dropFirst() {
            #expect(path.hasPrefix("/run/user/") || path.hasPrefix("/tmp/responderchain-"), "\(path)")
        }
        #expect(folders.description.contains("/run/user/*/responderchain and /tmp/responderchain-*"))
    }

    @Test("a folder that is a symbolic link, or owned by another user than its name says, is passed over")
    func untrustedFolders() throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(in: directory, name: "kiosk", pid: 4001, script: [])
        defer { server.stop() }
        #expect(AppDirectories(paths: [directory.sockets]).sockets().map(\.pid) == [4001])
        let link = directory.path + "/link"
        #expect(symlink(directory.sockets, link) == 0)
        #expect(AppDirectories(paths: [link]).sockets().isEmpty, "a link is not followed")
        // Named for another user, owned by the test's: someone posing as that user. Only a folder
        // this test made (never one that was there) is used and removed.
        var number: UInt32 = 4242
        while number == getuid() || mkdir("/tmp/responderchain-\(number)", 0o700) != 0 {
            number += 1
            try #require(number < 4342, "no free /tmp/responderchain-N to make")
        }
        let posing = "/tmp/responderchain-\(number)"
        defer { _ = try? FileManager.default.removeItem(atPath: posing) }
        #expect(rename(server.path, posing + "/kiosk.4001.sock") == 0)
        #expect(AppDirectories(paths: [posing]).sockets().isEmpty)
        // A folder of the right owner but open to others is passed over too.
        let open = try RuntimeDirectory()
        let other = try ScriptedInspectionServer(in: open, name: "open", pid: 4002, script: [])
        defer { other.stop() }
        #expect(chmod(open.sockets, 0o755) == 0)
        #expect(AppDirectories(paths: [open.sockets]).sockets().isEmpty)
    }

    @Test("a socket served by another user than its folder's owner gets nothing: keytrace checks before it sends")
    func peerOfAnotherUser() throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(in: directory, name: "kiosk", pid: 4001, script: [])
        defer { server.stop() }
        // The folder says user N; the process listening is the test's own user.
        let socket = AppSocket(name: "kiosk", pid: 4001, path: server.path, owner: getuid() + 1)
        do {
            _ = try InspectionConnection(to: socket, request: .watch)
            Issue.record("keytrace talked to a socket of another user than its folder's")
        } catch {
            #expect(error.description.contains("keytrace does not talk to it"), "\(error)")
        }
        usleep(200_000)
        let requests = server.requests.withLock { $0 }
        #expect(requests.allSatisfy { $0.isEmpty }, "no request line was sent: \(requests)")
        #expect(socket.probe() != .running(server.hello))
    }

    @Test("a probe gets the app's hello; a socket nobody listens on is stale; a silent close is a failure")
    func probe() throws {
        let directory = try RuntimeDirectory()
        let server = try ScriptedInspectionServer(in: directory, name: "kiosk", pid: 4001, script: [])
        defer { server.stop() }
        let silent = try ScriptedInspectionServer(in: directory, name: "mute", pid: 4002, script: [], greets: false)
        defer { silent.stop() }
        directory.leaveStaleSocket(name: "gone", pid: 4003)
        let sockets = AppDirectories(paths: [directory.sockets]).sockets()
        #expect(sockets.map(\.description) == ["gone (pid 4003)", "kiosk (pid 4001)", "mute (pid 4002)"])
        #expect(sockets[0].probe() == .stale)
        #expect(sockets[1].probe() == .running(server.hello))
        guard case .failed(let reason) = sockets[2].probe() else {
            Issue.record("a hello request answered with nothing is a failure")
            return
        }
        #expect(reason.contains("without a word"))
    }
}
