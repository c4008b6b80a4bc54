/* Offscreen OpenGL through EGL: desktop OpenGL (eglBindAPI(EGL_OPENGL_API), compatibility
 * profile, which draw.c's fixed function needs) on Mesa's surfaceless platform, falling back to
 * the default display. No surface: the context draws into its own framebuffer object, 4x
 * multisampled where the driver allows, resolved into a plain one for glReadPixels. */
#include "offscreen.h"

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Framebuffer objects are OpenGL 3.0: fetched through EGL rather than linked, as libGL need not
 * export them. */
typedef struct fbo_api {
	PFNGLGENFRAMEBUFFERSPROC gen_framebuffers;
	PFNGLDELETEFRAMEBUFFERSPROC delete_framebuffers;
	PFNGLBINDFRAMEBUFFERPROC bind_framebuffer;
	PFNGLGENRENDERBUFFERSPROC gen_renderbuffers;
	PFNGLDELETERENDERBUFFERSPROC delete_renderbuffers;
	PFNGLBINDRENDERBUFFERPROC bind_renderbuffer;
	PFNGLRENDERBUFFERSTORAGEMULTISAMPLEPROC storage_multisample;
	PFNGLFRAMEBUFFERRENDERBUFFERPROC framebuffer_renderbuffer;
	PFNGLCHECKFRAMEBUFFERSTATUSPROC check_status;
	PFNGLBLITFRAMEBUFFERPROC blit;
} fbo_api;

struct offscreen {
	EGLDisplay display;
	EGLContext context;
	fbo_api gl;
	int width, height;
	GLuint draw_fbo, read_fbo; /* multisampled, resolved */
	GLuint buffers[3];          /* colour (MS), depth (MS), colour (resolved) */
	char renderer[128];
};

static const char* egl_error_name(EGLint e)
{
	switch (e) {
	case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
	case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
	case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
	case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
	case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
	case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
	case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
	case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
	case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
	default: return "an EGL error";
	}
}

/* Surfaceless first (no display server, no GPU needed), then whatever the default display is. */
static EGLDisplay open_display(void)
{
	const char* ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
		(PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
	EGLint major, minor;
	if (ext && strstr(ext, "EGL_MESA_platform_surfaceless") && get_platform_display) {
		EGLDisplay d = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
		if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) return d;
	}
	EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
	if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) return d;
	return EGL_NO_DISPLAY;
}

static bool load_fbo_api(fbo_api* a)
{
#define LOAD(field, name) a->field = (void*)eglGetProcAddress(name)
	LOAD(gen_framebuffers, "glGenFramebuffers");
	LOAD(delete_framebuffers, "glDeleteFramebuffers");
	LOAD(bind_framebuffer, "glBindFramebuffer");
	LOAD(gen_renderbuffers, "glGenRenderbuffers");
	LOAD(delete_renderbuffers, "glDeleteRenderbuffers");
	LOAD(bind_renderbuffer, "glBindRenderbuffer");
	LOAD(storage_multisample, "glRenderbufferStorageMultisample");
	LOAD(framebuffer_renderbuffer, "glFramebufferRenderbuffer");
	LOAD(check_status, "glCheckFramebufferStatus");
	LOAD(blit, "glBlitFramebuffer");
#undef LOAD
	return a->gen_framebuffers && a->delete_framebuffers && a->bind_framebuffer && a->gen_renderbuffers &&
	       a->delete_renderbuffers && a->bind_renderbuffer && a->storage_multisample && a->framebuffer_renderbuffer &&
	       a->check_status && a->blit;
}

static bool make_framebuffers(offscreen* o, char* err, size_t err_size)
{
	fbo_api* gl = &o->gl;
	GLint max_samples = 0;
	glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
	GLsizei samples = max_samples >= 4 ? 4 : 0;
	gl->gen_renderbuffers(3, o->buffers);
	gl->gen_framebuffers(1, &o->draw_fbo);
	gl->gen_framebuffers(1, &o->read_fbo);
	gl->bind_renderbuffer(GL_RENDERBUFFER, o->buffers[0]);
	gl->storage_multisample(GL_RENDERBUFFER, samples, GL_RGBA8, o->width, o->height);
	gl->bind_renderbuffer(GL_RENDERBUFFER, o->buffers[1]);
	gl->storage_multisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, o->width, o->height);
	gl->bind_renderbuffer(GL_RENDERBUFFER, o->buffers[2]);
	gl->storage_multisample(GL_RENDERBUFFER, 0, GL_RGBA8, o->width, o->height);
	gl->bind_framebuffer(GL_FRAMEBUFFER, o->read_fbo);
	gl->framebuffer_renderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, o->buffers[2]);
	GLenum read_status = gl->check_status(GL_FRAMEBUFFER);
	gl->bind_framebuffer(GL_FRAMEBUFFER, o->draw_fbo);
	gl->framebuffer_renderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, o->buffers[0]);
	gl->framebuffer_renderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, o->buffers[1]);
	GLenum draw_status = gl->check_status(GL_FRAMEBUFFER);
	if (read_status != GL_FRAMEBUFFER_COMPLETE || draw_status != GL_FRAMEBUFFER_COMPLETE || glGetError() != GL_NO_ERROR) {
		snprintf(err, err_size, "cannot create a %dx%d OpenGL framebuffer for rendering", o->width, o->height);
		return false;
	}
	if (samples > 0) glEnable(GL_MULTISAMPLE);
	return true;
}

offscreen* offscreen_create(int width, int height, char* err, size_t err_size)
{
	offscreen* o = calloc(1, sizeof *o);
	if (!o) {
		snprintf(err, err_size, "out of memory creating the OpenGL context");
		return NULL;
	}
	o->width = width;
	o->height = height;
	o->display = open_display();
	if (o->display == EGL_NO_DISPLAY) {
		snprintf(err, err_size, "cannot open an EGL display for offscreen OpenGL (%s); is Mesa's libegl-mesa0 installed?",
			 egl_error_name(eglGetError()));
		free(o);
		return NULL;
	}
	const EGLint attributes[] = {EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
				     EGL_DEPTH_SIZE, 24, EGL_NONE};
	EGLConfig config = NULL;
	EGLint count = 0;
	if (!eglBindAPI(EGL_OPENGL_API) || !eglChooseConfig(o->display, attributes, &config, 1, &count) || count < 1) {
		snprintf(err, err_size, "EGL offers no desktop OpenGL configuration for offscreen rendering (%s)",
			 egl_error_name(eglGetError()));
		offscreen_destroy(o);
		return NULL;
	}
	/* A compatibility context: draw.c uses fixed-function OpenGL 2.1. */
	o->context = eglCreateContext(o->display, config, EGL_NO_CONTEXT, NULL);
	if (o->context == EGL_NO_CONTEXT || !eglMakeCurrent(o->display, EGL_NO_SURFACE, EGL_NO_SURFACE, o->context)) {
		snprintf(err, err_size, "cannot create an offscreen OpenGL context (%s)", egl_error_name(eglGetError()));
		offscreen_destroy(o);
		return NULL;
	}
	const char* name = (const char*)glGetString(GL_RENDERER);
	snprintf(o->renderer, sizeof o->renderer, "%s", name ? name : "unknown");
	if (!load_fbo_api(&o->gl)) {
		snprintf(err, err_size, "the OpenGL driver (%s) lacks framebuffer objects, needed for offscreen rendering", o->renderer);
		offscreen_destroy(o);
		return NULL;
	}
	if (!make_framebuffers(o, err, err_size)) {
		offscreen_destroy(o);
		return NULL;
	}
	return o;
}

bool offscreen_read(offscreen* o, uint8_t* rgb, char* err, size_t err_size)
{
	fbo_api* gl = &o->gl;
	gl->bind_framebuffer(GL_READ_FRAMEBUFFER, o->draw_fbo);
	gl->bind_framebuffer(GL_DRAW_FRAMEBUFFER, o->read_fbo);
	gl->blit(0, 0, o->width, o->height, 0, 0, o->width, o->height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
	gl->bind_framebuffer(GL_READ_FRAMEBUFFER, o->read_fbo);
	glPixelStorei(GL_PACK_ALIGNMENT, 1);
	size_t row = 3 * (size_t)o->width;
	/* OpenGL's rows run bottom up: read each into its flipped place. */
	for (int y = 0; y < o->height; ++y) glReadPixels(0, y, o->width, 1, GL_RGB, GL_UNSIGNED_BYTE, rgb + (size_t)(o->height - 1 - y) * row);
	gl->bind_framebuffer(GL_FRAMEBUFFER, o->draw_fbo);
	GLenum e = glGetError();
	if (e != GL_NO_ERROR) {
		snprintf(err, err_size, "OpenGL error 0x%x while reading the rendered image", e);
		return false;
	}
	return true;
}

const char* offscreen_renderer(const offscreen* o) { return o->renderer; }

void offscreen_destroy(offscreen* o)
{
	if (!o) return;
	if (o->context != EGL_NO_CONTEXT && o->context) {
		if (o->draw_fbo) {
			o->gl.delete_framebuffers(1, &o->draw_fbo);
			o->gl.delete_framebuffers(1, &o->read_fbo);
			o->gl.delete_renderbuffers(3, o->buffers);
		}
		eglMakeCurrent(o->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
		eglDestroyContext(o->display, o->context);
	}
#ifndef __SANITIZE_ADDRESS__
	if (o->display != EGL_NO_DISPLAY) eglTerminate(o->display);
#else
	/* Under AddressSanitizer the display stays open until exit: eglTerminate unloads Mesa's
	 * driver (swrast_dri.so), whose globals still point at 240 bytes it never frees; once it is
	 * gone LeakSanitizer reports them as leaks of an unnamed module, which no suppression can
	 * match. Kept loaded, they stay reachable and drape's own leaks are still all reported. */
#endif
	eglReleaseThread();
	free(o);
}
