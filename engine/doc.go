// Package engine moves due work to its next state on time: it fires the
// store's group timers from an in-process timing wheel, drains what is due
// in LIMITed batches through the store, and runs a sweeper that repairs
// whatever a trigger dropped.
//
// The store is the authority. The wheel is an accelerator: losing it (a
// crash, a restart) loses speed, never work, because timers are durable
// and the sweeper scans the store's due indexes.
package engine
