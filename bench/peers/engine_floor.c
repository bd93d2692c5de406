/*
 * The least a program that runs a script with Debian's JavaScriptCore does, for
 * `hybrid-bench --only startup` to set beside `hybrid run`: load the library as HybridTerm
 * does (dlopen, RTLD_LAZY | RTLD_LOCAL | RTLD_DEEPBIND), make a context group and a global
 * context, evaluate `1 + 1`, and exit. No Swift, no bridge, no bundle, no frame: what
 * `hybrid run` takes beyond this program is ours to cut; this program's time is not.
 *
 * Built by scripts/build-engine-floor.sh. Exits 1 with the reason when the library or a
 * function is missing, or the script does not give 2.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>

typedef void *Ref;

static void *function(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (found == NULL) fprintf(stderr, "engine_floor: libjavascriptcoregtk-4.1 has no %s\n", name);
    return found;
}

int main(void) {
    void *library = dlopen("libjavascriptcoregtk-4.1.so.0", RTLD_LAZY | RTLD_LOCAL | RTLD_DEEPBIND);
    if (library == NULL) {
        fprintf(stderr, "engine_floor: %s\n", dlerror());
        return 1;
    }
    Ref (*createGroup)(void) = (Ref (*)(void))function(library, "JSContextGroupCreate");
    Ref (*createContext)(Ref, Ref) = (Ref (*)(Ref, Ref))function(library, "JSGlobalContextCreateInGroup");
    Ref (*createString)(const char *) = (Ref (*)(const char *))function(library, "JSStringCreateWithUTF8CString");
    Ref (*evaluate)(Ref, Ref, Ref, Ref, int, Ref *) = (Ref (*)(Ref, Ref, Ref, Ref, int, Ref *))function(library, "JSEvaluateScript");
    double (*toNumber)(Ref, Ref, Ref *) = (double (*)(Ref, Ref, Ref *))function(library, "JSValueToNumber");
    if (!createGroup || !createContext || !createString || !evaluate || !toNumber) return 1;
    Ref context = createContext(createGroup(), NULL);
    Ref exception = NULL;
    Ref value = evaluate(context, createString("1 + 1"), NULL, NULL, 1, &exception);
    if (value == NULL || exception != NULL || toNumber(context, value, NULL) != 2) {
        fprintf(stderr, "engine_floor: evaluating 1 + 1 did not give 2\n");
        return 1;
    }
    return 0;
}
