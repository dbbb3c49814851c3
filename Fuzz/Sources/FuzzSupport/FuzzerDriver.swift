/// libFuzzer's driver (`LLVMFuzzerRunDriver`, in the runtime `-sanitize=fuzzer` links).
///
/// SwiftPM gives every executable its own entry point, so libFuzzer's `main` cannot
/// be used; each target's `main.swift` calls this instead, with its test function.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_silgen_name("exit")
func exit(_ status: CInt) -> Never
