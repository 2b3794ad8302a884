// Package docs holds lapse's manual, the Markdown pages beside this file,
// and the tests that keep it true: its benchmark tables, and the README's
// headline numbers, are generated from bench/*.json (TestBenchmarksPage,
// TestReadmeNumbers); its links resolve (TestDocsLinks); api.md's copy of
// the contract is shared/API.md but for the lines it lists
// (TestDocsAPIDiffers). Its Go examples are the code the tests run, and
// its commands give only the flags lapse has, and its curl blocks run
// against lapse serve as they stand (TestReadmeGoClient,
// TestEventsWebhookReceiver, TestCommandsAsDocumented, TestReadmeTryIt
// and TestDocsCurl in cmd/lapse).
// configuration.md is generated from lapse serve's flag set by
// TestConfigPage in cli/.
package docs
