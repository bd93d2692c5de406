#define _GNU_SOURCE
#include "CJavaScriptCore.h"
#include <dlfcn.h>
#include <sched.h>
#include <unistd.h>
#include <pthread.h>
#include <stdio.h>

// Debian's libjavascriptcoregtk-4.1-0 (the runtime package of libjavascriptcoregtk-4.1-dev).
static const char *const libraryName = "libjavascriptcoregtk-4.1.so.0";

struct HybridJavaScriptCoreFunctions hybridJavaScriptCore;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static const char *result;

// The library's references to its own symbols (its vtables alone hold about 10,000, all bound
// as it loads) are looked up in its own scope first (RTLD_DEEPBIND), not after the program
// and each library it links: a fifth fewer instructions in dlopen, which is on the critical
// path of `hybrid run` (BENCHMARKS.md "Start-up"). The bindings come out the same: the shipped
// program exports no symbols, and the libraries it links that the engine uses are the very
// ones the engine's own scope finds. Not when AddressSanitizer's runtime is in the process
// (scripts/sanitize.sh), which refuses it: it must interpose the engine's malloc.
static int deepBind(void) {
    return dlsym(RTLD_DEFAULT, "__asan_init") == NULL ? RTLD_DEEPBIND : 0;
}

static void load(void) {
    // Bound lazily: the library and the twenty it needs import thousands of functions a run
    // never calls, and binding them all up front was most of the loader's share of `hybrid run`.
    // The functions used here are looked up below, so a library without one still fails now.
    void *library = dlopen(libraryName, RTLD_LAZY | RTLD_LOCAL | deepBind());
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

// The context the loading thread prepares when asked before the first context is taken,
// handed over once; all under `preparedLock`. Once the library is loaded the thread waits for
// a request, or for a take that wants none (`declined`).
static pthread_mutex_t preparedLock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t preparedChanged = PTHREAD_COND_INITIALIZER;
static bool loaderStarted;
static bool loaded;        // the thread is past loading the library…
static bool libraryLoaded; // …and it loaded
static bool requested;
static bool declined;
static bool prepared;      // the thread made the context
static JSContextGroupRef preparedGroup;
static JSGlobalContextRef preparedContext;

static void *loadOnItsThread(void *unused) {
    (void)unused;
    // It was started away from its parent; from here on it may run anywhere the process may.
    cpu_set_t allowed;
    // For the process id, Linux answers the main thread's set.
    if (sched_getaffinity(getpid(), sizeof allowed, &allowed) == 0) sched_setaffinity(0, sizeof allowed, &allowed);
    bool ok = HybridJavaScriptCoreLoad() == NULL;
    pthread_mutex_lock(&preparedLock);
    loaded = true;
    libraryLoaded = ok;
    pthread_cond_broadcast(&preparedChanged);
    while (ok && !requested && !declined) pthread_cond_wait(&preparedChanged, &preparedLock);
    bool prepare = ok && requested;
    pthread_mutex_unlock(&preparedLock);
    if (!prepare) return NULL;
    JSContextGroupRef group = JSContextGroupCreate();
    JSGlobalContextRef context = JSGlobalContextCreateInGroup(group, NULL);
    pthread_mutex_lock(&preparedLock);
    preparedGroup = group;
    preparedContext = context;
    prepared = true;
    pthread_cond_broadcast(&preparedChanged);
    pthread_mutex_unlock(&preparedLock);
    return NULL;
}

static pthread_once_t startOnce = PTHREAD_ONCE_INIT;

static void startLoadingThread(void) {
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // Linux starts a new thread on its parent's processor, where it waits for the parent's
    // time slice (up to a few milliseconds, while the parent parses its arguments): start it
    // on another one, where the process may use one.
    cpu_set_t others;
    int current = sched_getcpu();
    if (current >= 0 && sched_getaffinity(0, sizeof others, &others) == 0) {
        CPU_CLR(current, &others);
        if (CPU_COUNT(&others) > 0) pthread_attr_setaffinity_np(&attributes, sizeof others, &others);
    }
    // Started before the thread exists, so a take from any thread waits for its decision.
    pthread_mutex_lock(&preparedLock);
    loaderStarted = true;
    pthread_mutex_unlock(&preparedLock);
    pthread_t thread;
    if (pthread_create(&thread, &attributes, loadOnItsThread, NULL) != 0) {
        // No thread: the engine loads when first needed, as without this call.
        pthread_mutex_lock(&preparedLock);
        loaderStarted = false;
        pthread_cond_broadcast(&preparedChanged);
        pthread_mutex_unlock(&preparedLock);
    }
    pthread_attr_destroy(&attributes);
}

void HybridJavaScriptCoreStartLoading(void) {
    pthread_once(&startOnce, startLoadingThread);
}

void HybridJavaScriptCoreRequestPreparedContext(void) {
    pthread_mutex_lock(&preparedLock);
    if (!declined) {
        requested = true;
        pthread_cond_broadcast(&preparedChanged);
    }
    pthread_mutex_unlock(&preparedLock);
}

bool HybridJavaScriptCoreTakePreparedContext(JSContextGroupRef *group, JSGlobalContextRef *context) {
    *group = NULL;
    *context = NULL;
    pthread_mutex_lock(&preparedLock);
    // (A thread that could not be created counts as never started.)
    while (loaderStarted && !loaded) pthread_cond_wait(&preparedChanged, &preparedLock);
    if (!loaderStarted) {
        pthread_mutex_unlock(&preparedLock);
        return false;
    }
    // Asked for: the thread is making it, or about to.
    if (libraryLoaded && requested) {
        while (!prepared) pthread_cond_wait(&preparedChanged, &preparedLock);
    }
    bool taken = preparedContext != NULL;
    *group = preparedGroup;
    *context = preparedContext;
    preparedGroup = NULL;
    preparedContext = NULL;
    // The first take decides: later requests are too late, and a thread still waiting for one ends.
    declined = true;
    pthread_cond_broadcast(&preparedChanged);
    pthread_mutex_unlock(&preparedLock);
    return taken;
}
