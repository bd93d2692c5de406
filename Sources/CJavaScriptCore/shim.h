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

// Also exported without a header: calls `function(promise, reason)` for each rejected promise
// that had no handler when the microtask queue drained.
void JSGlobalContextSetUnhandledRejectionCallback(JSGlobalContextRef ctx, JSObjectRef function,
                                                  JSValueRef *exception);
#endif
