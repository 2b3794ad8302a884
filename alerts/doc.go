// Package alerts ships lapse's Prometheus alerting rules: lapse.rules.yml,
// for operators to load with rule_files in prometheus.yml, and
// lapse.rules_test.yml, their unit tests for promtool. It has no Go API;
// its tests run promtool check rules and promtool test rules, and hold
// every rule to the conventions docs/operations.md's Alerts section states. That
// every metric a rule names is one lapse exports is checked against a
// running lapse serve, in package cli.
package alerts
