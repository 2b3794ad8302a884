package alerts_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/lapsehq/lapse/internal/testtool"
)

// TestPromtool checks the rules and runs their unit tests: each alert
// fired by sample series, and not by others.
func TestPromtool(t *testing.T) {
	bin := testtool.Path(t, "LAPSE_TEST_PROMTOOL", "promtool", "prometheus")
	for _, args := range [][]string{
		{"check", "rules", "lapse.rules.yml"},
		{"test", "rules", "lapse.rules_test.yml"},
	} {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// rule is an alerting rule of lapse.rules.yml.
type rule struct {
	Alert       string            `yaml:"alert"`
	For         string            `yaml:"for"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

// ruleTests is lapse.rules_test.yml, as far as the alerts it expects.
type ruleTests struct {
	Tests []struct {
		AlertRuleTest []struct {
			Alertname string `yaml:"alertname"`
			ExpAlerts []any  `yaml:"exp_alerts"`
		} `yaml:"alert_rule_test"`
	} `yaml:"tests"`
}

// TestRulesConventions: every alert waits a for: before it fires, has a
// severity that says whether it pages (critical) or waits (warning), a
// summary and a description saying what to do, and a unit test that fires
// it.
func TestRulesConventions(t *testing.T) {
	var rules struct {
		Groups []struct {
			Rules []rule `yaml:"rules"`
		} `yaml:"groups"`
	}
	var tests ruleTests
	read(t, "lapse.rules.yml", &rules)
	read(t, "lapse.rules_test.yml", &tests)
	fired := map[string]bool{}
	for _, tc := range tests.Tests {
		for _, a := range tc.AlertRuleTest {
			fired[a.Alertname] = fired[a.Alertname] || len(a.ExpAlerts) > 0
		}
	}
	n := 0
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			n++
			switch {
			case r.Alert == "":
				t.Errorf("rule %d is not an alert", n)
			case r.For == "":
				t.Errorf("%s: no for:", r.Alert)
			case !slices.Contains([]string{"critical", "warning"}, r.Labels["severity"]):
				t.Errorf("%s: severity %q, want critical or warning", r.Alert, r.Labels["severity"])
			case r.Annotations["summary"] == "" || r.Annotations["description"] == "":
				t.Errorf("%s: want a summary and a description", r.Alert)
			case !fired[r.Alert]:
				t.Errorf("%s: no unit test fires it", r.Alert)
			}
		}
	}
	if n == 0 {
		t.Fatal("lapse.rules.yml holds no rule")
	}
}

// read decodes the YAML file name into v.
func read(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
