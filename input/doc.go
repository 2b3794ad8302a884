// Package input holds the rules every value from outside lapse meets
// before lapse acts on it (shared/API.md, "Input rules"), the same on
// every store: IDs and keys, names, free text, money and durations.
//
// A value that breaks a rule is an *InvalidError naming its field, which
// the HTTP API answers 422 invalid. The rules are checked once, where a
// request is decoded; what passes them fits every store's columns and
// compares byte for byte on each.
package input
