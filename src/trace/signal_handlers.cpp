#include "trace/signal_handlers.hpp"

#include <signal.h>

#include <array>

#include "trace/trace_writer.hpp"

namespace p3s::trace {
namespace {

constexpr std::array<int, 7> kFatalSignals = {SIGSEGV, SIGBUS,  SIGFPE, SIGILL,
                                              SIGABRT, SIGTERM, SIGINT};

// The handlers that were installed before ours, indexed by signal number.
std::array<struct sigaction, NSIG> g_previous{};

struct sigaction& previous_action(int signal) {
  return g_previous[static_cast<std::size_t>(signal)];
}

void on_fatal_signal(int signal) {
  TraceWriter::finish_from_signal(signal);
  sigaction(signal, &previous_action(signal), nullptr);
  // Blocked until this handler returns, then delivered to the restored handler.
  raise(signal);
}

void on_continue(int signal, siginfo_t* info, void* context) {
  TraceWriter::write_out_from_signal();
  const struct sigaction& previous = previous_action(signal);
  if ((previous.sa_flags & SA_SIGINFO) != 0) {
    previous.sa_sigaction(signal, info, context);
  } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal);
  }
}

void install(int signal, struct sigaction& action) {
  struct sigaction& previous = previous_action(signal);
  sigaction(signal, &action, &previous);
  // A signal the process ignores changes nothing, so it must not end the trace either.
  if ((previous.sa_flags & SA_SIGINFO) == 0 && previous.sa_handler == SIG_IGN) {
    sigaction(signal, &previous, nullptr);
  }
}

}  // namespace

void install_signal_handlers() {
  struct sigaction action {};
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  action.sa_handler = on_fatal_signal;
  for (int signal : kFatalSignals) install(signal, action);

  action.sa_flags = SA_RESTART | SA_SIGINFO;
  action.sa_sigaction = on_continue;
  install(SIGCONT, action);
}

}  // namespace p3s::trace
