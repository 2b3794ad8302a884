package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"text/tabwriter"
	"time"

	"github.com/lapsehq/lapse/credential"
	"github.com/lapsehq/lapse/store"
	"github.com/lapsehq/lapse/storetype"
)

// tokensUsage is the help of `lapse tokens`.
const tokensUsage = `usage: lapse tokens <create|list|revoke> [flags]

API credentials: bearer tokens, stored hashed in the store every instance
shares, each with scopes. Once a token exists, every route but /healthz
and /readyz needs one (Authorization: Bearer <token>); an instance sees a
new or revoked token within 2s.

  lapse tokens create --name checkout --scopes wallet,orders
        prints the new token once: keep it, the store holds only its hash
  lapse tokens list
        every token: name, scopes, created, revoked
  lapse tokens revoke --name checkout
        refuses the token from then on; its name stays taken

scopes: wallet (claim, lock, unlock, redeem, refund, read coupons),
orders (read SKUs; create, pay, cancel, read orders), admin (templates,
bulk issuance, void, users, SKU stock, sinks, replay), events (the feed),
metrics (GET /metrics)

lapse tokens <command> --help lists its flags: --store (LAPSE_STORE), the
store lapse serve uses (a SQLite store must already exist: lapse serve or
lapse migrate makes one), and the log flags
`

// tokensCmd runs `lapse tokens create|list|revoke`.
func tokensCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, tokensUsage)
		return fmt.Errorf("%w: lapse tokens needs create, list or revoke", ErrUsage)
	}
	if isHelp(args[0]) {
		fmt.Fprint(stdout, tokensUsage)
		return nil
	}
	sub, args := args[0], args[1:]
	fs := flag.NewFlagSet("tokens "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("store", "sqlite:lapse.db", "store URL, as lapse serve takes it (LAPSE_STORE)")
	var name, scopes *string
	var usage string
	switch sub {
	case "create":
		usage = "usage: lapse tokens create --name N --scopes S,S…\n\nMakes an API token and prints it once, on stdout: keep it, the store\nholds only its hash."
		name = fs.String("name", "", "the token's name, recorded as the actor of what it does (required)")
		scopes = fs.String("scopes", "", "comma-separated scopes: "+credential.Join(credential.Scopes)+" (required)")
	case "revoke":
		usage = "usage: lapse tokens revoke --name N\n\nRefuses the token from then on, on every instance within 2s; its name\nstays taken."
		name = fs.String("name", "", "the name of the token to revoke (required)")
	case "list":
		usage = "usage: lapse tokens list\n\nLists every token: name, scopes, created, revoked."
	default:
		fmt.Fprint(stderr, tokensUsage)
		return fmt.Errorf("%w: unknown tokens command %q", ErrUsage, sub)
	}
	var logs logFlags
	logs.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), usage)
		printGroupedDefaults(fs, commandGroups)
	}
	if err := parse(fs, args, stdout); err != nil {
		return err
	}
	log, err := logs.logger(stderr)
	if err != nil {
		return err
	}
	if name != nil && *name == "" {
		return errors.New("--name is required")
	}
	var want []credential.Scope
	if scopes != nil {
		if want, err = credential.ParseScopes(*scopes); err != nil {
			return fmt.Errorf("--scopes: %w", err)
		}
	}
	if err := existingStore(*url); err != nil {
		return err
	}
	st, err := openStore(ctx, serveConfig{store: *url}, store.Hooks{}, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	now := time.Now().UTC().Truncate(time.Millisecond)
	switch sub {
	case "create":
		tk, secret, err := st.CreateToken(ctx, store.CreateTokenParams{Name: *name, Scopes: want, Now: now})
		if err != nil {
			return err
		}
		log.Info("lapse: token created; it is shown once, on stdout", slog.String("name", tk.Name), slog.String("scopes", credential.Join(tk.Scopes)))
		fmt.Fprintln(stdout, secret)
	case "revoke":
		tk, err := st.RevokeToken(ctx, store.RevokeTokenParams{Name: *name, Now: now})
		if errors.Is(err, storetype.ErrNotFound) {
			return fmt.Errorf("no token named %q", *name)
		}
		if err != nil {
			return err
		}
		log.Info("lapse: token revoked", slog.String("name", tk.Name))
		fmt.Fprintf(stdout, "revoked %s at %s\n", tk.Name, tk.RevokedAt.Format(time.RFC3339))
	case "list":
		tks, err := st.Tokens(ctx)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "NAME\tSCOPES\tCREATED\tREVOKED")
		for _, tk := range tks {
			revoked := "-"
			if tk.Revoked() {
				revoked = tk.RevokedAt.Format(time.RFC3339)
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", tk.Name, credential.Join(tk.Scopes), tk.CreatedAt.Format(time.RFC3339), revoked)
		}
		return w.Flush()
	}
	return nil
}

// existingStore refuses a SQLite store URL whose file does not exist, so
// that a mistyped or forgotten --store is an error, not a new empty store
// beside the one lapse serves: only lapse serve and lapse migrate create
// a store. A PostgreSQL or MySQL database must exist to be opened at all.
func existingStore(url string) error {
	path, err := sqlitePath(url)
	if err != nil {
		return nil // not a SQLite URL: openStore judges it
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("--store: no SQLite store at %s (lapse serve or lapse migrate creates one): give --store or LAPSE_STORE the store lapse serve uses", path)
	}
	return nil
}
