#ifndef NOTICEBOARD_CVIPS_SHIM_H
#define NOTICEBOARD_CVIPS_SHIM_H

// libvips (Debian's libvips-dev). Its operations take their optional arguments as C varargs, which Swift
// cannot call, so each call Noticeboard makes is wrapped here with fixed arguments.
#include <vips/vips.h>

static void nb_vips_drop_log(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain; (void)level; (void)message; (void)data;
}

/// Starts libvips once per process: one thread per operation (the caller spreads images across cores),
/// no operation cache (it would keep every source buffer alive), no loaders libvips marks untrusted, and
/// its warnings kept off the terminal (a bad image is reported as a diagnostic instead).
static inline int nb_vips_start(void) {
    if (VIPS_INIT("noticeboard")) return -1;
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    vips_cache_set_max_files(0);
    vips_block_untrusted_set(TRUE);
    g_log_set_handler("VIPS", (GLogLevelFlags)(G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO | G_LOG_LEVEL_DEBUG),
        nb_vips_drop_log, NULL);
    return 0;
}

/// The image's header only: nothing is decoded until pixels are asked for. NULL when no loader accepts it.
static inline VipsImage *nb_vips_header(const void *bytes, size_t length) {
    return vips_image_new_from_buffer(bytes, length, "", NULL);
}

/// The image, decoded in full on first use (in memory, or in a temporary file when large) rather than streamed:
/// streaming through libvips 8.14's tile cache turns a decoding error into a black tile and a warning, so a
/// truncated file would pass. It fails on the decoder's warnings too: libjpeg only warns ("Corrupt JPEG data:
/// premature end of data segment") when the data ends before the size its header claims, or when it holds an
/// end marker or bytes it skips, and fills the rest with grey. `shrink` (1, 2, 4 or 8) is JPEG's
/// shrink-on-load; other formats take 1.
static inline VipsImage *nb_vips_decode(const void *bytes, size_t length, int shrink) {
    char options[32];
    g_snprintf(options, sizeof options, shrink > 1 ? "[shrink=%d]" : "", shrink);
    return vips_image_new_from_buffer(bytes, length, options, "access", VIPS_ACCESS_RANDOM, "fail_on", VIPS_FAIL_ON_WARNING, NULL);
}

/// A lazy pipeline that turns the image upright from its EXIF orientation, converts it to sRGB (through its
/// ICC profile when it has one, CMYK included) and scales it to `width` pixels wide, never up.
static inline VipsImage *nb_vips_upright_srgb(VipsImage *in, int width) {
    VipsImage *out = NULL;
    if (vips_thumbnail_image(in, &out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, "export_profile", "srgb", NULL))
        return NULL;
    return out;
}

/// An already upright sRGB image scaled to `width` pixels wide, never up.
static inline VipsImage *nb_vips_scale(VipsImage *in, int width) {
    VipsImage *out = NULL;
    if (vips_thumbnail_image(in, &out, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, "no_rotate", TRUE, NULL))
        return NULL;
    return out;
}

/// 8-bit sRGB (or 8-bit grey), as browsers expect; other colour spaces and 16-bit images are converted.
static inline VipsImage *nb_vips_web_colour(VipsImage *in) {
    VipsImage *out = NULL;
    VipsInterpretation space = vips_image_get_interpretation(in);
    if ((space == VIPS_INTERPRETATION_sRGB || space == VIPS_INTERPRETATION_B_W) && vips_image_get_format(in) == VIPS_FORMAT_UCHAR) {
        g_object_ref(in);
        return in;
    }
    if (vips_colourspace(in, &out, space == VIPS_INTERPRETATION_GREY16 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB, NULL))
        return NULL;
    return out;
}

/// Computes the pipeline into memory, so errors in the source surface here (NULL) and later steps reuse the pixels.
static inline VipsImage *nb_vips_in_memory(VipsImage *in) {
    return vips_image_copy_memory(in);
}

/// The encoders, each told to leave out every piece of metadata (EXIF, XMP, IPTC, ICC, comments); the WebP
/// encoder of libvips 8.14 does not listen, so its output goes through libwebpmux as well.
static inline int nb_vips_save_jpeg(VipsImage *in, int quality, void **bytes, size_t *length) {
    return vips_jpegsave_buffer(in, bytes, length, "Q", quality, "optimize_coding", TRUE, "interlace", TRUE, "strip", TRUE, NULL);
}

static inline int nb_vips_save_png(VipsImage *in, void **bytes, size_t *length) {
    return vips_pngsave_buffer(in, bytes, length, "strip", TRUE, NULL);
}

static inline int nb_vips_save_webp(VipsImage *in, int quality, void **bytes, size_t *length) {
    return vips_webpsave_buffer(in, bytes, length, "Q", quality, "strip", TRUE, NULL);
}

#endif
