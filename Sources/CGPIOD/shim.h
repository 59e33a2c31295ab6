#pragma once
#include <gpiod.h>
// eventfd, which Glibc's Swift module leaves out: a button thread's stop event.
#include <sys/eventfd.h>
