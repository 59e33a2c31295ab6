// The kernel's time interfaces that Glibc's Swift module leaves out:
// timerfd (waits on real time that end when the clock is set) and the NTP
// status (whether the clock is synchronised).
#include <sys/timerfd.h>
#include <sys/timex.h>
