/* render_gl.c - OpenGL 3.3 core: a streamed vertex buffer, an offscreen target, a blit. */
#include <strata/render/gl/render_gl.h>

#include <stddef.h>
#include <string.h>

#include <SDL2/SDL.h>
#include <SDL2/SDL_opengl.h>

#include <strata/core/diag.h>
#include <strata/render/gl/render_gl_shaders.h>

/* Every GL function the backend calls, loaded from the context (SDL_GL_GetProcAddress):
   the engine links no GL library, and a missing function is found at start-up, by name. */
#define RENDER_GL_FUNCS(X)                                                                                 \
    X(void, Viewport, (GLint, GLint, GLsizei, GLsizei))                                                    \
    X(void, ClearColor, (GLfloat, GLfloat, GLfloat, GLfloat))                                              \
    X(void, Clear, (GLbitfield))                                                                           \
    X(void, Enable, (GLenum))                                                                              \
    X(void, Disable, (GLenum))                                                                             \
    X(void, BlendFuncSeparate, (GLenum, GLenum, GLenum, GLenum))                                           \
    X(GLenum, GetError, (void))                                                                            \
    X(const GLubyte *, GetString, (GLenum))                                                                \
    X(void, GetIntegerv, (GLenum, GLint *))                                                                \
    X(void, PixelStorei, (GLenum, GLint))                                                                  \
    X(void, ReadPixels, (GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *))                          \
    X(void, GenTextures, (GLsizei, GLuint *))                                                              \
    X(void, DeleteTextures, (GLsizei, const GLuint *))                                                     \
    X(void, BindTexture, (GLenum, GLuint))                                                                 \
    X(void, ActiveTexture, (GLenum))                                                                       \
    X(void, TexImage2D, (GLenum, GLint, GLint, GLsizei, GLsizei, GLint, GLenum, GLenum, const void *))     \
    X(void, TexParameteri, (GLenum, GLenum, GLint))                                                        \
    X(void, GenBuffers, (GLsizei, GLuint *))                                                               \
    X(void, DeleteBuffers, (GLsizei, const GLuint *))                                                      \
    X(void, BindBuffer, (GLenum, GLuint))                                                                  \
    X(void, BufferData, (GLenum, GLsizeiptr, const void *, GLenum))                                        \
    X(void, BufferSubData, (GLenum, GLintptr, GLsizeiptr, const void *))                                   \
    X(void, GenVertexArrays, (GLsizei, GLuint *))                                                          \
    X(void, DeleteVertexArrays, (GLsizei, const GLuint *))                                                 \
    X(void, BindVertexArray, (GLuint))                                                                     \
    X(void, VertexAttribPointer, (GLuint, GLint, GLenum, GLboolean, GLsizei, const void *))                \
    X(void, EnableVertexAttribArray, (GLuint))                                                             \
    X(GLuint, CreateShader, (GLenum))                                                                      \
    X(void, ShaderSource, (GLuint, GLsizei, const GLchar *const *, const GLint *))                         \
    X(void, CompileShader, (GLuint))                                                                       \
    X(void, GetShaderiv, (GLuint, GLenum, GLint *))                                                        \
    X(void, GetShaderInfoLog, (GLuint, GLsizei, GLsizei *, GLchar *))                                      \
    X(void, DeleteShader, (GLuint))                                                                        \
    X(GLuint, CreateProgram, (void))                                                                       \
    X(void, AttachShader, (GLuint, GLuint))                                                                \
    X(void, LinkProgram, (GLuint))                                                                         \
    X(void, GetProgramiv, (GLuint, GLenum, GLint *))                                                       \
    X(void, GetProgramInfoLog, (GLuint, GLsizei, GLsizei *, GLchar *))                                     \
    X(void, DeleteProgram, (GLuint))                                                                       \
    X(void, UseProgram, (GLuint))                                                                          \
    X(GLint, GetUniformLocation, (GLuint, const GLchar *))                                                 \
    X(void, UniformMatrix4fv, (GLint, GLsizei, GLboolean, const GLfloat *))                                \
    X(void, Uniform1i, (GLint, GLint))                                                                     \
    X(void, GenFramebuffers, (GLsizei, GLuint *))                                                          \
    X(void, DeleteFramebuffers, (GLsizei, const GLuint *))                                                 \
    X(void, BindFramebuffer, (GLenum, GLuint))                                                             \
    X(void, FramebufferTexture2D, (GLenum, GLenum, GLenum, GLuint, GLint))                                 \
    X(GLenum, CheckFramebufferStatus, (GLenum))                                                            \
    X(void, BlitFramebuffer, (GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLbitfield, GLenum)) \
    X(void, DrawElements, (GLenum, GLsizei, GLenum, const void *))

#define RENDER_GL_MEMBER(ret, name, args) ret(APIENTRY *name) args;
typedef struct GlApi {
    RENDER_GL_FUNCS(RENDER_GL_MEMBER)
} GlApi;

#define RENDER_GL_MIN_QUADS 4096u /* first size of the buffers; they double when outgrown */

struct RenderGl {
    GlApi gl;
    SDL_Window *window;
    SDL_GLContext ctx; /* made current before use: a program may also draw with SDL's renderer */
    int logical_w, logical_h;
    GLuint program, vao, vbo, ibo;
    GLuint fbo, fbo_tex; /* the logical-size picture */
    GLint u_proj, u_tex;
    GLint max_texture;
    uint32_t capacity; /* quads the vertex and index buffers hold */
    Color clear;       /* of this frame: the letterbox gets it too, as under SDL_Renderer */
    char describe[160];
};

/* Errors left from before (ours or the driver's) must not be taken for the next call's;
   bounded, since a lost context reports one for ever. */
static void render_gl_clear_errors(RenderGl *g) {
    for (int i = 0; i < 16 && g->gl.GetError() != GL_NO_ERROR; i++) {
    }
}

static bool render_gl_load(GlApi *api, Error *why) {
    const char *missing = NULL;
#define RENDER_GL_LOAD(ret, name, args)                                                      \
    {                                                                                        \
        void *p = SDL_GL_GetProcAddress("gl" #name);                                         \
        if (!p && !missing) missing = "gl" #name;                                            \
        memcpy(&api->name, &p, sizeof p); /* object to function pointer, defined by POSIX */ \
    }
    RENDER_GL_FUNCS(RENDER_GL_LOAD)
#undef RENDER_GL_LOAD
    if (missing) st_error_set(why, ERROR_REFUSED, NULL, 0, 0, "the driver has no %s", missing);
    return missing == NULL;
}

static GLuint render_gl_shader(RenderGl *g, GLenum kind, const char *src, Error *why) {
    GLuint sh = g->gl.CreateShader(kind);
    g->gl.ShaderSource(sh, 1, &src, NULL);
    g->gl.CompileShader(sh);
    GLint ok = 0;
    g->gl.GetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        g->gl.GetShaderInfoLog(sh, sizeof log, NULL, log);
        st_error_set(why, ERROR_REFUSED, NULL, 0, 0, "%s shader: %s", kind == GL_VERTEX_SHADER ? "vertex" : "fragment",
                     log);
        g->gl.DeleteShader(sh);
        return 0;
    }
    return sh;
}

static bool render_gl_program(RenderGl *g, Error *why) {
    GLuint vs = render_gl_shader(g, GL_VERTEX_SHADER, render_gl_vertex_src, why);
    GLuint fs = vs ? render_gl_shader(g, GL_FRAGMENT_SHADER, render_gl_fragment_src, why) : 0;
    if (!fs) {
        if (vs) g->gl.DeleteShader(vs);
        return false;
    }
    g->program = g->gl.CreateProgram();
    g->gl.AttachShader(g->program, vs);
    g->gl.AttachShader(g->program, fs);
    g->gl.LinkProgram(g->program);
    g->gl.DeleteShader(vs); /* kept alive by the program */
    g->gl.DeleteShader(fs);
    GLint ok = 0;
    g->gl.GetProgramiv(g->program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[512] = "";
        g->gl.GetProgramInfoLog(g->program, sizeof log, NULL, log);
        st_error_set(why, ERROR_REFUSED, NULL, 0, 0, "shader link: %s", log);
        return false;
    }
    g->u_proj = g->gl.GetUniformLocation(g->program, "u_proj");
    g->u_tex = g->gl.GetUniformLocation(g->program, "u_tex");
    return true;
}

/* Vertex and index buffers for `quads` quads. The index buffer is the fixed pattern
   (0 1 2)(0 2 3) + 4i, so a batch of quads [first, first + count) is one glDrawElements at
   offset first * 6 indices, with no per-frame index work at all. */
static bool render_gl_reserve(RenderGl *g, uint32_t quads, Arena *scratch) {
    uint32_t cap = g->capacity ? g->capacity : RENDER_GL_MIN_QUADS;
    while (cap < quads) cap *= 2;
    if (cap == g->capacity) return true;
    uint32_t *ix = st_arena_push_array_raw(scratch, uint32_t, (uint64_t)cap * 6);
    if (!ix) return false;
    render_gl_clear_errors(g);
    for (uint32_t i = 0; i < cap; i++) {
        uint32_t b = i * 4, *q = ix + (uint64_t)i * 6;
        q[0] = b, q[1] = b + 1, q[2] = b + 2, q[3] = b, q[4] = b + 2, q[5] = b + 3;
    }
    g->gl.BindVertexArray(g->vao);
    g->gl.BindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ibo);
    g->gl.BufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)cap * 6 * sizeof(uint32_t), ix, GL_STATIC_DRAW);
    g->gl.BindBuffer(GL_ARRAY_BUFFER, g->vbo);
    g->gl.BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)cap * 4 * sizeof(RenderVertex), NULL, GL_STREAM_DRAW);
    /* Only a store the driver made counts: a failed one leaves nothing to draw from. */
    bool ok = g->gl.GetError() == GL_NO_ERROR;
    g->capacity = ok ? cap : 0;
    return ok;
}

RenderGl *st_render_gl_create(Arena *perm, SDL_Window *window, int logical_w, int logical_h, Error *why) {
    RenderGl *g = st_arena_push_struct(perm, RenderGl);
    if (!g || !window) {
        st_error_set(why, ERROR_REFUSED, NULL, 0, 0, "%s", g ? "no window" : "out of memory");
        return NULL;
    }
    g->window = window;
    g->ctx = SDL_GL_GetCurrentContext();
    g->logical_w = logical_w;
    g->logical_h = logical_h;
    if (!render_gl_load(&g->gl, why)) return NULL;
    GlApi *gl = &g->gl;
    render_gl_clear_errors(g);
    if (!render_gl_program(g, why)) {
        st_render_gl_release(g);
        return NULL;
    }
    gl->GetIntegerv(GL_MAX_TEXTURE_SIZE, &g->max_texture);

    gl->GenVertexArrays(1, &g->vao);
    gl->GenBuffers(1, &g->vbo);
    gl->GenBuffers(1, &g->ibo);
    gl->BindVertexArray(g->vao);
    gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo);
    GLsizei stride = sizeof(RenderVertex);
    gl->VertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(RenderVertex, x));
    gl->VertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, (void *)offsetof(RenderVertex, r));
    gl->VertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, (void *)offsetof(RenderVertex, u));
    for (GLuint a = 0; a < 3; a++) gl->EnableVertexAttribArray(a);
    {
        SCRATCH_SCOPE(tmp, perm);
        if (!render_gl_reserve(g, RENDER_GL_MIN_QUADS, tmp.arena)) {
            st_error_set(why, ERROR_REFUSED, NULL, 0, 0, "cannot make the vertex buffers");
            st_render_gl_release(g);
            return NULL;
        }
    }

    /* The picture at its logical size; present scales it by whole steps. */
    gl->GenTextures(1, &g->fbo_tex);
    gl->BindTexture(GL_TEXTURE_2D, g->fbo_tex);
    gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, logical_w, logical_h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->GenFramebuffers(1, &g->fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, g->fbo_tex, 0);
    GLenum status = gl->CheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE) {
        st_error_set(why, ERROR_REFUSED, NULL, 0, 0, "offscreen framebuffer incomplete (0x%x)", (unsigned)status);
        st_render_gl_release(g);
        return NULL;
    }

    /* Fixed state: one program, one unit, SDL's "blend" mode (alpha over, alpha kept). */
    gl->UseProgram(g->program);
    gl->Uniform1i(g->u_tex, 0);
    /* Logical pixels to clip space, y down: the orthographic matrix of left 0, right w, bottom
       h, top 0, near -1, far 1, column-major as GL reads it (rounded as cglm's glm_ortho). */
    float w = (float)logical_w, h = (float)logical_h, rl = 1.0f / w, tb = 1.0f / (0.0f - h);
    const GLfloat proj[16] = {2.0f * rl, 0, 0, 0, 0, 2.0f * tb, 0, 0, 0, 0, -1.0f, 0, -w * rl, -h * tb, 0, 1.0f};
    gl->UniformMatrix4fv(g->u_proj, 1, GL_FALSE, proj);
    gl->ActiveTexture(GL_TEXTURE0);
    gl->Enable(GL_BLEND);
    gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 4);
    gl->PixelStorei(GL_PACK_ALIGNMENT, 4);
    GLenum err = gl->GetError();
    if (err != GL_NO_ERROR) {
        st_error_set(why, ERROR_REFUSED, NULL, 0, 0, "GL error 0x%x while setting up", (unsigned)err);
        st_render_gl_release(g);
        return NULL;
    }
    const char *version = (const char *)gl->GetString(GL_VERSION);
    const char *renderer = (const char *)gl->GetString(GL_RENDERER);
    SDL_snprintf(g->describe, sizeof g->describe, "OpenGL %s (%s)", version ? version : "?", renderer ? renderer : "?");
    return g;
}

void st_render_gl_release(RenderGl *g) {
    if (!g) return;
    SDL_GL_MakeCurrent(g->window, g->ctx);
    GlApi *gl = &g->gl;
    if (g->fbo) gl->DeleteFramebuffers(1, &g->fbo);
    if (g->fbo_tex) gl->DeleteTextures(1, &g->fbo_tex);
    if (g->vbo) gl->DeleteBuffers(1, &g->vbo);
    if (g->ibo) gl->DeleteBuffers(1, &g->ibo);
    if (g->vao) gl->DeleteVertexArrays(1, &g->vao);
    if (g->program) gl->DeleteProgram(g->program);
    g->fbo = g->fbo_tex = g->vbo = g->ibo = g->vao = g->program = 0;
}

const char *st_render_gl_describe(const RenderGl *g) { return g->describe; }

static bool gl_texture_fits(const RenderGl *g, const Texture *t) {
    if (t->w <= g->max_texture && t->h <= g->max_texture) return true;
    st_diag_report(DIAG_ERROR, "render: %s: %dx%d is larger than the GL driver's %d", t->name, t->w, t->h,
                   (int)g->max_texture);
    return false;
}

bool st_render_gl_texture_create(RenderGl *g, Texture *t, const uint8_t *rgba) {
    SDL_GL_MakeCurrent(g->window, g->ctx);
    GlApi *gl = &g->gl;
    if (!gl_texture_fits(g, t)) return false;
    gl->GenTextures(1, &t->gl);
    gl->BindTexture(GL_TEXTURE_2D, t->gl);
    gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, t->w, t->h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    GLenum err = gl->GetError();
    if (err != GL_NO_ERROR) {
        st_diag_report(DIAG_ERROR, "render: %s: glTexImage2D: GL error 0x%x", t->name, (unsigned)err);
        gl->DeleteTextures(1, &t->gl);
        t->gl = 0;
        return false;
    }
    t->bytes = (uint64_t)t->w * (uint64_t)t->h * 4;
    return true;
}

bool st_render_gl_texture_update(RenderGl *g, Texture *t, const uint8_t *rgba) {
    SDL_GL_MakeCurrent(g->window, g->ctx);
    GlApi *gl = &g->gl;
    if (!gl_texture_fits(g, t)) return false;
    render_gl_clear_errors(g);
    gl->BindTexture(GL_TEXTURE_2D, t->gl);
    gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, t->w, t->h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    GLenum err = gl->GetError();
    if (err != GL_NO_ERROR) {
        st_diag_report(DIAG_ERROR, "render: %s: glTexImage2D: GL error 0x%x", t->name, (unsigned)err);
        return false;
    }
    t->bytes = (uint64_t)t->w * (uint64_t)t->h * 4;
    return true;
}

void st_render_gl_texture_release(RenderGl *g, Texture *t) {
    SDL_GL_MakeCurrent(g->window, g->ctx); /* the names are this context's */
    if (t->gl) g->gl.DeleteTextures(1, &t->gl);
    t->gl = 0;
}

void st_render_gl_begin(RenderGl *g, Color clear) {
    SDL_GL_MakeCurrent(g->window, g->ctx); /* returns at once when it already is */
    GlApi *gl = &g->gl;
    g->clear = clear;
    gl->BindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    gl->Viewport(0, 0, g->logical_w, g->logical_h);
    gl->ClearColor(clear.r / 255.0f, clear.g / 255.0f, clear.b / 255.0f, clear.a / 255.0f);
    gl->Clear(GL_COLOR_BUFFER_BIT);
}

void st_render_gl_submit(RenderGl *g, const RenderVertex *verts, const RenderBatch *batches, uint32_t batch_count,
                         uint32_t quad_count, Arena *scratch, RenderStats *stats) {
    SDL_GL_MakeCurrent(g->window, g->ctx);
    GlApi *gl = &g->gl;
    if (!render_gl_reserve(g, quad_count, scratch)) {
        stats->dropped += quad_count;
        return;
    }
    gl->BindVertexArray(g->vao);
    gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo);
    /* One upload for the frame. Orphaning first (same size, no data) hands the driver a
       fresh store, so it never waits for last frame's draws to finish reading the old one. */
    gl->BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)g->capacity * 4 * sizeof(RenderVertex), NULL, GL_STREAM_DRAW);
    gl->BufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)quad_count * 4 * sizeof(RenderVertex), verts);
    for (uint32_t i = 0; i < batch_count; i++) {
        const RenderBatch *b = &batches[i];
        gl->BindTexture(GL_TEXTURE_2D, b->tex->gl);
        gl->DrawElements(GL_TRIANGLES, (GLsizei)b->count * 6, GL_UNSIGNED_INT,
                         (const void *)((uintptr_t)b->first * 6 * sizeof(uint32_t)));
        stats->draw_calls++;
        stats->sprites += b->count;
    }
}

/* The picture onto the window's back buffer, at the viewport (output pixels, y down), the
   frame's clear colour around it (SDL_RenderClear fills the letterbox too), and shown. */
void st_render_gl_present(RenderGl *g, RenderViewport vp) {
    SDL_GL_MakeCurrent(g->window, g->ctx);
    GlApi *gl = &g->gl;
    int w = 0, h = 0;
    SDL_GL_GetDrawableSize(g->window, &w, &h);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    gl->Viewport(0, 0, w, h);
    /* The letterbox only: a picture that covers the window overwrites every pixel anyway,
       and on a CPU rasteriser a clear of the whole window is a frame's worth of writes. */
    if (vp.x > 0 || vp.y > 0 || vp.w < w || vp.h < h) {
        Color c = g->clear;
        gl->ClearColor(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f);
        gl->Clear(GL_COLOR_BUFFER_BIT);
    }
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, g->fbo);
    int y0 = h - (vp.y + vp.h); /* GL's rows go up */
    gl->BlitFramebuffer(0, 0, g->logical_w, g->logical_h, vp.x, y0, vp.x + vp.w, y0 + vp.h, GL_COLOR_BUFFER_BIT,
                        GL_NEAREST);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    SDL_GL_SwapWindow(g->window);
}

bool st_render_gl_read_pixels(RenderGl *g, RenderViewport vp, Arena *out, uint8_t **rgba, int *w, int *h) {
    if (vp.w <= 0 || vp.h <= 0) return false;
    SDL_GL_MakeCurrent(g->window, g->ctx);
    GlApi *gl = &g->gl;
    /* From the offscreen picture, not the window: a window's pixels that another window
       covers are undefined in GL (pixel ownership), the picture's never are. It is then
       scaled to the viewport as the blit scales it (nearest: the texel under each output
       pixel's centre), so the result is what the player sees. */
    uint8_t *px = st_arena_push_raw(out, (uint64_t)vp.w * vp.h * 4, 16);
    if (!px) return false;
    SCRATCH_SCOPE(tmp, out);
    int lw = g->logical_w, lh = g->logical_h;
    uint8_t *pic = st_arena_push_raw(tmp.arena, (uint64_t)lw * lh * 4, 16);
    if (!pic) return false;
    render_gl_clear_errors(g);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, g->fbo);
    gl->ReadPixels(0, 0, lw, lh, GL_RGBA, GL_UNSIGNED_BYTE, pic);
    gl->BindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    GLenum err = gl->GetError();
    if (err != GL_NO_ERROR) {
        st_diag_report(DIAG_ERROR, "render: glReadPixels: GL error 0x%x", (unsigned)err);
        return false;
    }
    for (int y = 0; y < vp.h; y++) {
        int sy = (int)(((int64_t)y * 2 + 1) * lh / (2 * (int64_t)vp.h));
        const uint32_t *src = (const uint32_t *)(void *)(pic + (size_t)(lh - 1 - sy) * lw * 4); /* GL's rows go up */
        uint32_t *dst = (uint32_t *)(void *)(px + (size_t)y * vp.w * 4);
        for (int x = 0; x < vp.w; x++) dst[x] = src[((int64_t)x * 2 + 1) * lw / (2 * (int64_t)vp.w)];
    }
    /* The window is opaque whatever alpha the picture kept. */
    for (size_t i = 3; i < (size_t)vp.w * vp.h * 4; i += 4) px[i] = 255;
    *rgba = px;
    *w = vp.w;
    *h = vp.h;
    return true;
}
