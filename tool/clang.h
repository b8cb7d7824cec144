/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libclang, loaded when a scan needs it rather than linked: a machine
 * without it gets one clear error line from clang_load(), not the dynamic
 * loader's.  Include this instead of <clang-c/Index.h>: every clang_*()
 * used by the tool goes through clang_api, filled by clang_load().
 * Using a new libclang function is adding it to RTLOCK_CLANG_FUNCS.
 */
#ifndef RTLOCK_CLANG_H
#define RTLOCK_CLANG_H

#include <clang-c/Index.h>

#define RTLOCK_CLANG_FUNCS(X) \
	X(clang_Cursor_Evaluate) \
	X(clang_Cursor_getArgument) \
	X(clang_Cursor_getNumArguments) \
	X(clang_Cursor_getStorageClass) \
	X(clang_Cursor_isAnonymousRecordDecl) \
	X(clang_Cursor_isNull) \
	X(clang_Type_getNamedType) \
	X(clang_Type_visitFields) \
	X(clang_createIndex) \
	X(clang_EvalResult_dispose) \
	X(clang_EvalResult_getAsLongLong) \
	X(clang_EvalResult_getKind) \
	X(clang_disposeDiagnostic) \
	X(clang_disposeIndex) \
	X(clang_disposeString) \
	X(clang_disposeTranslationUnit) \
	X(clang_equalCursors) \
	X(clang_equalLocations) \
	X(clang_formatDiagnostic) \
	X(clang_getArrayElementType) \
	X(clang_getCString) \
	X(clang_getCanonicalType) \
	X(clang_getCursorDefinition) \
	X(clang_getCursorExtent) \
	X(clang_getCursorKind) \
	X(clang_getCursorKindSpelling) \
	X(clang_getCursorLinkage) \
	X(clang_getCursorLocation) \
	X(clang_getCursorReferenced) \
	X(clang_getCursorSemanticParent) \
	X(clang_getCursorSpelling) \
	X(clang_getCursorType) \
	X(clang_getDiagnostic) \
	X(clang_getDiagnosticSeverity) \
	X(clang_getFile) \
	X(clang_getFileContents) \
	X(clang_getFileLocation) \
	X(clang_getFileName) \
	X(clang_getInclusions) \
	X(clang_getLocationForOffset) \
	X(clang_getNullCursor) \
	X(clang_getNumDiagnostics) \
	X(clang_getPointeeType) \
	X(clang_getRangeEnd) \
	X(clang_getRangeStart) \
	X(clang_getResultType) \
	X(clang_getTranslationUnitCursor) \
	X(clang_getTypeDeclaration) \
	X(clang_getTypeSpelling) \
	X(clang_getTypedefDeclUnderlyingType) \
	X(clang_getTypedefName) \
	X(clang_isCursorDefinition) \
	X(clang_isFileMultipleIncludeGuarded) \
	X(clang_isExpression) \
	X(clang_parseTranslationUnit2) \
	X(clang_visitChildren)

struct clang_api {
#define X(f) __typeof__(&f) p_##f;
	RTLOCK_CLANG_FUNCS(X)
#undef X
};
extern struct clang_api clang_api;

/*
 * Load libclang ($RTLOCK_LIBCLANG, else the one the tool was built
 * against).  Returns 0, or -1 after reporting why.  Cheap when loaded.
 */
int clang_load(void);

#define clang_Cursor_Evaluate (clang_api.p_clang_Cursor_Evaluate)
#define clang_Cursor_getArgument (clang_api.p_clang_Cursor_getArgument)
#define clang_Cursor_getNumArguments (clang_api.p_clang_Cursor_getNumArguments)
#define clang_Cursor_getStorageClass (clang_api.p_clang_Cursor_getStorageClass)
#define clang_Cursor_isAnonymousRecordDecl (clang_api.p_clang_Cursor_isAnonymousRecordDecl)
#define clang_Cursor_isNull (clang_api.p_clang_Cursor_isNull)
#define clang_Type_getNamedType (clang_api.p_clang_Type_getNamedType)
#define clang_Type_visitFields (clang_api.p_clang_Type_visitFields)
#define clang_createIndex (clang_api.p_clang_createIndex)
#define clang_EvalResult_dispose (clang_api.p_clang_EvalResult_dispose)
#define clang_EvalResult_getAsLongLong (clang_api.p_clang_EvalResult_getAsLongLong)
#define clang_EvalResult_getKind (clang_api.p_clang_EvalResult_getKind)
#define clang_disposeDiagnostic (clang_api.p_clang_disposeDiagnostic)
#define clang_disposeIndex (clang_api.p_clang_disposeIndex)
#define clang_disposeString (clang_api.p_clang_disposeString)
#define clang_disposeTranslationUnit (clang_api.p_clang_disposeTranslationUnit)
#define clang_equalCursors (clang_api.p_clang_equalCursors)
#define clang_equalLocations (clang_api.p_clang_equalLocations)
#define clang_formatDiagnostic (clang_api.p_clang_formatDiagnostic)
#define clang_getArrayElementType (clang_api.p_clang_getArrayElementType)
#define clang_getCString (clang_api.p_clang_getCString)
#define clang_getCanonicalType (clang_api.p_clang_getCanonicalType)
#define clang_getCursorDefinition (clang_api.p_clang_getCursorDefinition)
#define clang_getCursorExtent (clang_api.p_clang_getCursorExtent)
#define clang_getCursorKind (clang_api.p_clang_getCursorKind)
#define clang_getCursorKindSpelling (clang_api.p_clang_getCursorKindSpelling)
#define clang_getCursorLinkage (clang_api.p_clang_getCursorLinkage)
#define clang_getCursorLocation (clang_api.p_clang_getCursorLocation)
#define clang_getCursorReferenced (clang_api.p_clang_getCursorReferenced)
#define clang_getCursorSemanticParent (clang_api.p_clang_getCursorSemanticParent)
#define clang_getCursorSpelling (clang_api.p_clang_getCursorSpelling)
#define clang_getCursorType (clang_api.p_clang_getCursorType)
#define clang_getDiagnostic (clang_api.p_clang_getDiagnostic)
#define clang_getDiagnosticSeverity (clang_api.p_clang_getDiagnosticSeverity)
#define clang_getFile (clang_api.p_clang_getFile)
#define clang_getFileContents (clang_api.p_clang_getFileContents)
#define clang_getFileLocation (clang_api.p_clang_getFileLocation)
#define clang_getFileName (clang_api.p_clang_getFileName)
#define clang_getInclusions (clang_api.p_clang_getInclusions)
#define clang_getLocationForOffset (clang_api.p_clang_getLocationForOffset)
#define clang_getNullCursor (clang_api.p_clang_getNullCursor)
#define clang_getNumDiagnostics (clang_api.p_clang_getNumDiagnostics)
#define clang_getPointeeType (clang_api.p_clang_getPointeeType)
#define clang_getRangeEnd (clang_api.p_clang_getRangeEnd)
#define clang_getRangeStart (clang_api.p_clang_getRangeStart)
#define clang_getResultType (clang_api.p_clang_getResultType)
#define clang_getTranslationUnitCursor (clang_api.p_clang_getTranslationUnitCursor)
#define clang_getTypeDeclaration (clang_api.p_clang_getTypeDeclaration)
#define clang_getTypeSpelling (clang_api.p_clang_getTypeSpelling)
#define clang_getTypedefDeclUnderlyingType (clang_api.p_clang_getTypedefDeclUnderlyingType)
#define clang_getTypedefName (clang_api.p_clang_getTypedefName)
#define clang_isCursorDefinition (clang_api.p_clang_isCursorDefinition)
#define clang_isFileMultipleIncludeGuarded \
	(clang_api.p_clang_isFileMultipleIncludeGuarded)
#define clang_isExpression (clang_api.p_clang_isExpression)
#define clang_parseTranslationUnit2 (clang_api.p_clang_parseTranslationUnit2)
#define clang_visitChildren (clang_api.p_clang_visitChildren)

#endif
