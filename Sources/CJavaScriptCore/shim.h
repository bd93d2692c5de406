#ifndef HYBRID_CJAVASCRIPTCORE_SHIM_H
#define HYBRID_CJAVASCRIPTCORE_SHIM_H
#include <JavaScriptCore/JavaScript.h>
#include <stdbool.h>

// Exported by the library but declared in no installed header (a private API of
// JavaScriptCore); the watchdog needs it to stop runaway scripts.
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit,
                                         JSShouldTerminateCallback callback, void *context);
void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);
#endif
