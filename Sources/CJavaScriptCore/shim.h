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

// Exported without a header as well. The engine drains its microtask queue when its lock is
// released for the last time: holding the lock across an entry and releasing it inside a call
// lets the queued jobs run inside that entry, under its time limit.
void JSLock(JSContextRef ctx);
void JSUnlock(JSContextRef ctx);

// The script's stack right now, one `#N function() at URL:LINE` line per frame; readable from
// the time limit's callback, so a runaway is reported where it was stopped.
JSStringRef JSContextCreateBacktrace(JSContextRef ctx, unsigned maxStackSize);
#endif
