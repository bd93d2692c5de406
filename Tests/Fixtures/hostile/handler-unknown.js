// reported at line 2
WebViewJavascriptBridge.callHandler('no.such.handler', {});
