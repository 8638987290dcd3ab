/* render_gl_shaders.h - the GL backend's one shader: a textured quad tinted by its vertex
   colour. GLSL 3.30 core on the desktop; in the browser the same bodies compile as GLSL ES
   3.00 (WebGL 2) behind another version line and a precision, which is why they use
   nothing else. */
#ifndef RENDER_GL_SHADERS_H
#define RENDER_GL_SHADERS_H

#if defined(__EMSCRIPTEN__)
#define RENDER_GL_GLSL_VERSION "#version 300 es\nprecision mediump float;\n"
#else
#define RENDER_GL_GLSL_VERSION "#version 330 core\n"
#endif

static const char render_gl_vertex_src[] =
    RENDER_GL_GLSL_VERSION "layout(location = 0) in vec2 a_pos;   /* logical pixels, y down */\n"
                           "layout(location = 1) in vec4 a_color; /* normalised from bytes */\n"
                           "layout(location = 2) in vec2 a_uv;\n"
                           "uniform mat4 u_proj;                  /* logical pixels -> clip space */\n"
                           "out vec4 v_color;\n"
                           "out vec2 v_uv;\n"
                           "void main() {\n"
                           "    v_color = a_color;\n"
                           "    v_uv = a_uv;\n"
                           "    gl_Position = u_proj * vec4(a_pos, 0.0, 1.0);\n"
                           "}\n";

static const char render_gl_fragment_src[] =
    RENDER_GL_GLSL_VERSION "in vec4 v_color;\n"
                           "in vec2 v_uv;\n"
                           "uniform sampler2D u_tex;              /* nearest: texels stay square */\n"
                           "out vec4 o_color;\n"
                           "void main() {\n"
                           "    o_color = texture(u_tex, v_uv) * v_color;\n"
                           "}\n";

#endif
