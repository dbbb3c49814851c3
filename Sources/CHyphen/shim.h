// libhyphen (Debian libhyphen-dev): Liang hyphenation patterns. No pkg-config file,
// so the module map links it by name.
#include <hyphen.h>
