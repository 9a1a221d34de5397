// A console app imports LinuxKeyboard and gets the modules KeyboardApp is built from, as
// swift-nio's umbrella module re-exports NIOCore and NIOPosix.
@_exported public import Accessibility
@_exported public import AppRuntime
@_exported public import AppSpeech
@_exported public import EvdevInput
@_exported public import EventLoop
@_exported public import LinuxSystem
@_exported public import ResponderChain
@_exported public import Seat
@_exported public import SpeechDispatcher
@_exported public import TerminalCanvas
@_exported public import TerminalIO
@_exported public import XKBKeymap
