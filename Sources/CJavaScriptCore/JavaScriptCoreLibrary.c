#include "CJavaScriptCore.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Debian's libjavascriptcoregtk-4.1-0 (the runtime package of libjavascriptcoregtk-4.1-dev).
static const char *const libraryName = "libjavascriptcoregtk-4.1.so.0";

struct HybridJavaScriptCoreFunctions hybridJavaScriptCore;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static const char *result;

static void load(void) {
    // Bound lazily: the library and the twenty it needs import thousands of functions a run
    // never calls, and binding them all up front was most of the loader's share of `hybrid run`.
    // The functions used here are looked up below, so a library without one still fails now.
    void *library = dlopen(libraryName, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure, sizeof failure, "cannot load JavaScriptCore (%s): %s", libraryName, dlerror());
        result = failure;
        return;
    }
#define HYBRID_JAVASCRIPTCORE_LOOKUP(resultType, name, parameters, arguments) \
    *(void **)&hybridJavaScriptCore.name = dlsym(library, #name); \
    if (hybridJavaScriptCore.name == NULL) { \
        snprintf(failure, sizeof failure, "JavaScriptCore (%s) has no function %s", libraryName, #name); \
        result = failure; \
        return; \
    }
    HYBRID_JAVASCRIPTCORE_FUNCTIONS(HYBRID_JAVASCRIPTCORE_LOOKUP)
#undef HYBRID_JAVASCRIPTCORE_LOOKUP
    result = NULL;
}

const char *HybridJavaScriptCoreLoad(void) {
    pthread_once(&once, load);
    return result;
}
