#ifndef HYBRID_CJAVASCRIPTCORE_H
#define HYBRID_CJAVASCRIPTCORE_H
// The part of JavaScriptCore's C API HybridTerm uses, declared here and reached through a table
// of function pointers that `HybridJavaScriptCoreLoad` fills from the library with dlopen.
// Linking the library would load it, and the 60-odd libraries it needs, into every process at
// start (about 4 ms, most of `hybrid render`'s start-up), though only scripts use it.
//
// The declarations follow JavaScriptCore's public headers (JSBase.h, JSValueRef.h,
// JSObjectRef.h, JSStringRef.h, JSContextRef.h), whose C ABI is stable, and four functions the
// library exports without a header (marked below). The static inline wrappers keep the
// library's own names, so Swift calls `JSValueMakeNumber(context, 1)` as it would with the
// library linked.
#include <stdbool.h>
#include <stddef.h>

typedef const struct OpaqueJSContextGroup *JSContextGroupRef;
typedef const struct OpaqueJSContext *JSContextRef;
typedef struct OpaqueJSContext *JSGlobalContextRef;
typedef struct OpaqueJSString *JSStringRef;
typedef struct OpaqueJSClass *JSClassRef;
typedef struct OpaqueJSPropertyNameArray *JSPropertyNameArrayRef;
typedef struct OpaqueJSPropertyNameAccumulator *JSPropertyNameAccumulatorRef;
typedef const struct OpaqueJSValue *JSValueRef;
typedef struct OpaqueJSValue *JSObjectRef;
typedef unsigned short JSChar;

typedef enum {
    kJSTypeUndefined,
    kJSTypeNull,
    kJSTypeBoolean,
    kJSTypeNumber,
    kJSTypeString,
    kJSTypeObject,
    kJSTypeSymbol,
    kJSTypeBigInt
} JSType;

typedef unsigned JSPropertyAttributes;
enum {
    kJSPropertyAttributeNone = 0,
    kJSPropertyAttributeReadOnly = 1 << 1,
    kJSPropertyAttributeDontEnum = 1 << 2,
    kJSPropertyAttributeDontDelete = 1 << 3
};
typedef unsigned JSClassAttributes;

typedef void (*JSObjectInitializeCallback)(JSContextRef ctx, JSObjectRef object);
typedef void (*JSObjectFinalizeCallback)(JSObjectRef object);
typedef bool (*JSObjectHasPropertyCallback)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName);
typedef JSValueRef (*JSObjectGetPropertyCallback)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef *exception);
typedef bool (*JSObjectSetPropertyCallback)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef value, JSValueRef *exception);
typedef bool (*JSObjectDeletePropertyCallback)(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef *exception);
typedef void (*JSObjectGetPropertyNamesCallback)(JSContextRef ctx, JSObjectRef object, JSPropertyNameAccumulatorRef propertyNames);
typedef JSValueRef (*JSObjectCallAsFunctionCallback)(JSContextRef ctx, JSObjectRef function, JSObjectRef thisObject, size_t argumentCount, const JSValueRef arguments[], JSValueRef *exception);
typedef JSObjectRef (*JSObjectCallAsConstructorCallback)(JSContextRef ctx, JSObjectRef constructor, size_t argumentCount, const JSValueRef arguments[], JSValueRef *exception);
typedef bool (*JSObjectHasInstanceCallback)(JSContextRef ctx, JSObjectRef constructor, JSValueRef possibleInstance, JSValueRef *exception);
typedef JSValueRef (*JSObjectConvertToTypeCallback)(JSContextRef ctx, JSObjectRef object, JSType type, JSValueRef *exception);

typedef struct {
    const char *name;
    JSObjectGetPropertyCallback getProperty;
    JSObjectSetPropertyCallback setProperty;
    JSPropertyAttributes attributes;
} JSStaticValue;

typedef struct {
    const char *name;
    JSObjectCallAsFunctionCallback callAsFunction;
    JSPropertyAttributes attributes;
} JSStaticFunction;

typedef struct {
    int version;
    JSClassAttributes attributes;
    const char *className;
    JSClassRef parentClass;
    const JSStaticValue *staticValues;
    const JSStaticFunction *staticFunctions;
    JSObjectInitializeCallback initialize;
    JSObjectFinalizeCallback finalize;
    JSObjectHasPropertyCallback hasProperty;
    JSObjectGetPropertyCallback getProperty;
    JSObjectSetPropertyCallback setProperty;
    JSObjectDeletePropertyCallback deleteProperty;
    JSObjectGetPropertyNamesCallback getPropertyNames;
    JSObjectCallAsFunctionCallback callAsFunction;
    JSObjectCallAsConstructorCallback callAsConstructor;
    JSObjectHasInstanceCallback hasInstance;
    JSObjectConvertToTypeCallback convertToType;
} JSClassDefinition;

// The library exports this as a constant of all zeros; a copy of it here spares a symbol.
static const JSClassDefinition kJSClassDefinitionEmpty = {0};

// Called when a script runs past the time limit; returning true stops it.
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);

// Every function used: X(result type, name, (parameters), (arguments)).
#define HYBRID_JAVASCRIPTCORE_FUNCTIONS(X) \
    X(JSValueRef, JSEvaluateScript, (JSContextRef ctx, JSStringRef script, JSObjectRef thisObject, JSStringRef sourceURL, int startingLineNumber, JSValueRef *exception), (ctx, script, thisObject, sourceURL, startingLineNumber, exception)) \
    X(void, JSGarbageCollect, (JSContextRef ctx), (ctx)) \
    X(JSContextGroupRef, JSContextGroupCreate, (void), ()) \
    X(void, JSContextGroupRelease, (JSContextGroupRef group), (group)) \
    X(JSGlobalContextRef, JSGlobalContextCreateInGroup, (JSContextGroupRef group, JSClassRef globalObjectClass), (group, globalObjectClass)) \
    X(void, JSGlobalContextRelease, (JSGlobalContextRef ctx), (ctx)) \
    X(JSObjectRef, JSContextGetGlobalObject, (JSContextRef ctx), (ctx)) \
    X(JSClassRef, JSClassCreate, (const JSClassDefinition *definition), (definition)) \
    X(JSObjectRef, JSObjectMake, (JSContextRef ctx, JSClassRef jsClass, void *data), (ctx, jsClass, data)) \
    X(JSObjectRef, JSObjectMakeArray, (JSContextRef ctx, size_t argumentCount, const JSValueRef arguments[], JSValueRef *exception), (ctx, argumentCount, arguments, exception)) \
    X(JSObjectRef, JSObjectMakeError, (JSContextRef ctx, size_t argumentCount, const JSValueRef arguments[], JSValueRef *exception), (ctx, argumentCount, arguments, exception)) \
    X(JSValueRef, JSObjectGetProperty, (JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef *exception), (ctx, object, propertyName, exception)) \
    X(void, JSObjectSetProperty, (JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef value, JSPropertyAttributes attributes, JSValueRef *exception), (ctx, object, propertyName, value, attributes, exception)) \
    X(JSValueRef, JSObjectGetPropertyAtIndex, (JSContextRef ctx, JSObjectRef object, unsigned propertyIndex, JSValueRef *exception), (ctx, object, propertyIndex, exception)) \
    X(void, JSObjectSetPropertyAtIndex, (JSContextRef ctx, JSObjectRef object, unsigned propertyIndex, JSValueRef value, JSValueRef *exception), (ctx, object, propertyIndex, value, exception)) \
    X(void *, JSObjectGetPrivate, (JSObjectRef object), (object)) \
    X(bool, JSObjectIsFunction, (JSContextRef ctx, JSObjectRef object), (ctx, object)) \
    X(JSValueRef, JSObjectCallAsFunction, (JSContextRef ctx, JSObjectRef object, JSObjectRef thisObject, size_t argumentCount, const JSValueRef arguments[], JSValueRef *exception), (ctx, object, thisObject, argumentCount, arguments, exception)) \
    X(JSPropertyNameArrayRef, JSObjectCopyPropertyNames, (JSContextRef ctx, JSObjectRef object), (ctx, object)) \
    X(void, JSPropertyNameArrayRelease, (JSPropertyNameArrayRef array), (array)) \
    X(size_t, JSPropertyNameArrayGetCount, (JSPropertyNameArrayRef array), (array)) \
    X(JSStringRef, JSPropertyNameArrayGetNameAtIndex, (JSPropertyNameArrayRef array, size_t index), (array, index)) \
    X(JSStringRef, JSStringCreateWithCharacters, (const JSChar *chars, size_t numChars), (chars, numChars)) \
    X(void, JSStringRelease, (JSStringRef string), (string)) \
    X(size_t, JSStringGetLength, (JSStringRef string), (string)) \
    X(const JSChar *, JSStringGetCharactersPtr, (JSStringRef string), (string)) \
    X(size_t, JSStringGetMaximumUTF8CStringSize, (JSStringRef string), (string)) \
    X(size_t, JSStringGetUTF8CString, (JSStringRef string, char *buffer, size_t bufferSize), (string, buffer, bufferSize)) \
    X(bool, JSStringIsEqual, (JSStringRef a, JSStringRef b), (a, b)) \
    X(JSType, JSValueGetType, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    X(bool, JSValueIsUndefined, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    X(bool, JSValueIsNull, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    X(bool, JSValueIsNumber, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    X(bool, JSValueIsString, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    X(bool, JSValueIsSymbol, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    X(bool, JSValueIsObject, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    X(bool, JSValueIsArray, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    X(bool, JSValueIsDate, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    X(JSValueRef, JSValueMakeUndefined, (JSContextRef ctx), (ctx)) \
    X(JSValueRef, JSValueMakeNull, (JSContextRef ctx), (ctx)) \
    X(JSValueRef, JSValueMakeBoolean, (JSContextRef ctx, bool boolean), (ctx, boolean)) \
    X(JSValueRef, JSValueMakeNumber, (JSContextRef ctx, double number), (ctx, number)) \
    X(JSValueRef, JSValueMakeString, (JSContextRef ctx, JSStringRef string), (ctx, string)) \
    X(bool, JSValueToBoolean, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    X(double, JSValueToNumber, (JSContextRef ctx, JSValueRef value, JSValueRef *exception), (ctx, value, exception)) \
    X(JSStringRef, JSValueToStringCopy, (JSContextRef ctx, JSValueRef value, JSValueRef *exception), (ctx, value, exception)) \
    X(JSObjectRef, JSValueToObject, (JSContextRef ctx, JSValueRef value, JSValueRef *exception), (ctx, value, exception)) \
    X(void, JSValueProtect, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    X(void, JSValueUnprotect, (JSContextRef ctx, JSValueRef value), (ctx, value)) \
    /* Exported without a header (private API): the watchdog's time limit, which stops runaway scripts. */ \
    X(void, JSContextGroupSetExecutionTimeLimit, (JSContextGroupRef group, double limit, JSShouldTerminateCallback callback, void *context), (group, limit, callback, context)) \
    X(void, JSContextGroupClearExecutionTimeLimit, (JSContextGroupRef group), (group)) \
    /* Without a header too: calls `function(promise, reason)` for each rejected promise that had no handler when the microtask queue drained. */ \
    X(void, JSGlobalContextSetUnhandledRejectionCallback, (JSGlobalContextRef ctx, JSObjectRef function, JSValueRef *exception), (ctx, function, exception)) \
    /* Without a header: the engine drains its microtask queue when its lock is released for the last time, so holding the lock across an entry and releasing it inside a call runs the queued jobs inside that entry, under its time limit. */ \
    X(void, JSLock, (JSContextRef ctx), (ctx)) \
    X(void, JSUnlock, (JSContextRef ctx), (ctx)) \
    /* Without a header: the script's stack, one `#N function() at URL:LINE` line per frame, readable from the time limit's callback. */ \
    X(JSStringRef, JSContextCreateBacktrace, (JSContextRef ctx, unsigned maxStackSize), (ctx, maxStackSize))

/// The functions, once `HybridJavaScriptCoreLoad` has succeeded.
struct HybridJavaScriptCoreFunctions {
#define HYBRID_JAVASCRIPTCORE_FIELD(result, name, parameters, arguments) result (*name) parameters;
    HYBRID_JAVASCRIPTCORE_FUNCTIONS(HYBRID_JAVASCRIPTCORE_FIELD)
#undef HYBRID_JAVASCRIPTCORE_FIELD
};
extern struct HybridJavaScriptCoreFunctions hybridJavaScriptCore;

/// Loads the library and every function above, once (later calls answer the first's result).
/// Returns NULL when loaded, or what went wrong (the library or a function missing).
const char *HybridJavaScriptCoreLoad(void);

/// Starts `HybridJavaScriptCoreLoad` on a detached thread of its own, started on another
/// processor than the caller's where the process may use one (Linux would start it beside the
/// caller, behind the caller's time slice), so the library loads while the caller goes on.
/// Once: later calls do nothing.
void HybridJavaScriptCoreStartLoading(void);

/// Asks the loading thread to make, once the library is loaded, a context group and a global
/// context in it for `HybridJavaScriptCoreTakePreparedContext`: making the engine's virtual
/// machine is the next step of a program's start that waits for nothing of the program's.
/// The thread waits for this request (or for the first take) once the library is loaded.
/// Too late (the first context was taken already, or there is no thread) it does nothing.
/// Only once a terminal session, if one starts, has started: the engine installs its fault
/// handlers as it makes the machine, and a session's must come before them.
void HybridJavaScriptCoreRequestPreparedContext(void);

/// Hands over the context group and global context the loading thread prepared, waiting for
/// the thread to finish them; once. Returns false when none was asked for (the thread then
/// ends), and the caller makes its own.
bool HybridJavaScriptCoreTakePreparedContext(JSContextGroupRef *group, JSGlobalContextRef *context);

#define HYBRID_JAVASCRIPTCORE_WRAPPER(result, name, parameters, arguments) \
    static inline result name parameters { return hybridJavaScriptCore.name arguments; }
HYBRID_JAVASCRIPTCORE_FUNCTIONS(HYBRID_JAVASCRIPTCORE_WRAPPER)
#undef HYBRID_JAVASCRIPTCORE_WRAPPER

#endif
