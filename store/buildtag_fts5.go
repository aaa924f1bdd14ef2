//go:build sqlite_fts5

package store

// fts5Enabled exists only when built with -tags sqlite_fts5. store.go refers
// to it, so a build without the tag fails at compile time ("undefined:
// fts5Enabled") instead of at run time with "no such module: fts5".
const fts5Enabled = true
