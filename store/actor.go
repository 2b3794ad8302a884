package store

import (
	"context"
	"encoding/json"
)

// actorKey is the context key of the actor.
type actorKey struct{}

// WithActor returns ctx carrying the name of the credential a request
// came with: every event the request's writes cause records it as
// "actor" in its data.
func WithActor(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, actorKey{}, name)
}

// Actor returns the name WithActor put in ctx, "" if none.
func Actor(ctx context.Context) string {
	name, _ := ctx.Value(actorKey{}).(string)
	return name
}

// withActor returns the JSON object data with an "actor" field first, or
// data as it is if actor is "" (no credential: open mode, or lapse's own
// work) or data is not an object.
func withActor(data json.RawMessage, actor string) json.RawMessage {
	if actor == "" || len(data) < 2 || data[0] != '{' {
		return data
	}
	out := appendString(append(make([]byte, 0, len(data)+len(actor)+12), `{"actor":`...), actor)
	if rest := data[1:]; rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, data[1:]...)
}
