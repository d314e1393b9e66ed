// libdrm, as Debian's libdrm-dev installs it (pkg-config libdrm).
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>
