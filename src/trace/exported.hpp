#pragma once
// The library is compiled with hidden visibility; only the MPI entry points it wraps are
// marked for export (exports.map enforces the same at link time).
#define P3S_EXPORT __attribute__((visibility("default")))
