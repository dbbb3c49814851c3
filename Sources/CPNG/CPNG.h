// libpng for Swift, through its simplified API (png_image_*): errors come back as
// return values and a message, so no setjmp/longjmp ever crosses into Swift.
#include <png.h>
