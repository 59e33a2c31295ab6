// Headers only: SwiftPM builds a C target from at least one source file.
#include "CLinuxTime.h"
