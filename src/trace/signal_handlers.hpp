#pragma once
// Signals that end a rank (or announce that it is about to be ended) still leave a readable
// trace.

namespace p3s::trace {

// For SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM and SIGINT (mpirun stops the other
// ranks with SIGTERM when one fails): write out the buffered trace and "end signal SIG N", then
// restore the handler that was there before (Open MPI's, the program's, or the default) and
// raise the signal again, so the process ends exactly as it would have without the tracer.
// For SIGCONT, which Open MPI sends a second before that SIGTERM: write out the buffered trace
// and pass the signal on to the handler that was there before, if any. Signals the process
// ignores are left alone.
void install_signal_handlers();

}  // namespace p3s::trace
