import CLinux
import HAL

/// The process's signals, as a daemon that drives a motor must treat them.
public enum ProcessSignals {
    /// Every signal whose default action ends the process and that can be
    /// caught as an event: the daemon reads them from a signalfd and runs its
    /// shutdown steps (motor off) before exiting. Not here: SIGKILL and
    /// SIGSTOP (cannot be caught), SIGPIPE (ignored: a closed pipe is an
    /// EPIPE error on that write, see `ignoreBrokenPipe`), and the synchronous
    /// faults (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT),
    /// which a blocked mask cannot turn into events; after those the unit's
    /// `ExecStopPost=wristcore motor-off` drives the line low.
    public static let terminating: [Int32] = [
        SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
        SIGXCPU, SIGXFSZ, SIGIO, SIGPWR, SIGSTKFLT,
    ]

    /// The signal that asks a running daemon to restart in place (re-read the
    /// board file, reopen the devices), after its shutdown steps.
    public static let restart: Int32 = SIGHUP

    /// A log on stderr piped into a reader that dies (`wristcore run | tee`,
    /// then tee exits) must not kill the daemon with the motor on: a write
    /// to a closed pipe then fails with EPIPE instead of raising SIGPIPE.
    public static func ignoreBrokenPipe() {
        _ = signal(SIGPIPE, wc_sig_ign())
    }

    /// The name of a signal, for logs ("SIGTERM").
    public static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGHUP: "SIGHUP"
        case SIGINT: "SIGINT"
        case SIGQUIT: "SIGQUIT"
        case SIGTERM: "SIGTERM"
        case SIGUSR1: "SIGUSR1"
        case SIGUSR2: "SIGUSR2"
        case SIGALRM: "SIGALRM"
        case SIGVTALRM: "SIGVTALRM"
        case SIGPROF: "SIGPROF"
        case SIGXCPU: "SIGXCPU"
        case SIGXFSZ: "SIGXFSZ"
        case SIGIO: "SIGIO"
        case SIGPWR: "SIGPWR"
        case SIGSTKFLT: "SIGSTKFLT"
        case SIGPIPE: "SIGPIPE"
        default: "signal \(signal)"
        }
    }

    /// Blocks every terminating signal for the rest of the process's life:
    /// the daemon does this first thing, then reads them from its loop's
    /// signalfd. One that arrives before the loop exists (start-up), while
    /// it shuts down, or between the old and the new image of a restart
    /// stays pending until the loop reads it: a second SIGHUP within
    /// milliseconds of the first can no longer kill the watch, and a burst
    /// of them coalesces (a pending signal is pending once).
    public static func blockTerminating() {
        var set = sigset_t()
        sigemptyset(&set)
        for s in terminating { sigaddset(&set, s) }
        _ = pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Replaces the process image with the executable at `executable` (the
    /// path this process was started from, resolved at start-up: after a
    /// package upgrade it holds the new version) and the same arguments
    /// (same PID, so systemd keeps tracking it); when that cannot be
    /// executed (the file is gone, or nil was given), with a fresh copy of
    /// the running image (/proc/self/exe). Call it only after every device
    /// was released: descriptors are close-on-exec, but a line still
    /// requested would be busy for the new image. The signal mask is kept
    /// (`blockTerminating`): a signal that arrives during the exec waits,
    /// pending, for the new image's loop. The process's name goes along
    /// (`RestartHandoff.handName`): an exec names a process after the file,
    /// and /proc/self/exe would make it `exe`. Returns only when exec failed.
    public static func restartInPlace(executable: String?, arguments: [String]) -> HALError {
        RestartHandoff.handName()
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for p in argv { free(p) } }
        var tried = ""
        if let executable, executable.hasPrefix("/"), !executable.hasSuffix(" (deleted)") {
            execv(executable, &argv)
            tried = "execv \(executable): \(Errno.current); "
        }
        execv("/proc/self/exe", &argv)
        return Errno.current.halError("restart in place (\(tried)execv /proc/self/exe)")
    }
}
