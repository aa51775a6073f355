//! Installing the arena's signal handlers: one place for the `sigaction` call that
//! [`crate::arena::system::interrupt`] (SIGINT, SIGTERM) and [`crate::arena::system::pause`] (SIGTSTP, SIGCONT) both need.

/// Routes each of `signals` to `handler`, restarting interrupted system calls (`SA_RESTART`), so a
/// signal never turns a read or a wait elsewhere in the arena into a spurious error.
///
/// The handler must be async-signal-safe: the arena's only touch atomics.
pub(super) fn catch(signals: &[libc::c_int], handler: extern "C" fn(libc::c_int)) {
    // SAFETY: an all-zero `sigaction` is a valid value (no flags, empty mask), then filled in:
    // `handler` has the `sa_handler` signature (`SA_SIGINFO` is not set) and, as said above, is
    // async-signal-safe, so it is sound to run at any point of any thread. (rustix has no safe
    // way to install a handler: this is the one unsafe call the signals need.)
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler as *const () as usize;
        libc::sigemptyset(&mut action.sa_mask);
        action.sa_flags = libc::SA_RESTART;
        for &signal in signals {
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}
