// Package storetest is the conformance suite of the storage contract: every
// backend of store.Store runs it unchanged from its own tests.
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store { return open(t) })
//	}
//
// The suite speaks only through store.Store. It assumes nothing about how a
// backend keeps its data, only what the contract and DESIGN.md promise: the
// transition table applied with guarded compare-and-sets, the lazy expiry
// check on every read, never-early drains, group timers, an ordered outbox,
// idempotent replays, and, for a backend that implements store.Reminders
// (the others skip those groups), reminders planned and sent under the
// default policy (remind.Default), which newStore's stores must use. Every
// time it passes is explicit and whole
// milliseconds, so a backend that stores milliseconds (or finer) round-trips
// them; the store never reads a clock.
//
// Each subtest asks newStore for a fresh, empty store; isolating and
// cleaning up that store is the backend helper's job.
package storetest
