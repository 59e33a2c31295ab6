#pragma once
#include <ass/ass.h>
#include <fontconfig/fontconfig.h>
