// zlib, as Debian's zlib1g-dev installs it (pkg-config zlib).
#include <zlib.h>
