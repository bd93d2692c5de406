// HybridExpressions: DivKit's expression language (the `@{…}` bindings of screen documents).
//
// Layout of the module:
//   Values/      ExpressionValue, ExpressionColor, and DivKit-compatible text formatting
//   Lexer/       Tokens and the tokenizer (templates, escapes, literals, names)
//   Parser/      Recursive-descent parser and the evaluable node tree
//   Evaluation/  Operator semantics and error texts
//   Functions/   FunctionLibrary (overloads by type, methods) and the built-in functions
//   ExpressionTemplate.swift  the entry point: parse once, evaluate many times
//   ExpressionScope.swift     variable lookup, with dotted state paths
//
// Reference behaviour is DivKit's public test data, run by Tests/HybridExpressionsTests.
