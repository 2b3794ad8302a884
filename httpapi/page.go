package httpapi

import "net/http"

// writePage writes one page of a list kept in ID order: the items' views
// under key, and next, the ID of the page's last item, or the cursor after
// itself on an empty page: a client following next skips none, and an
// empty page is the end of the list for now.
func writePage[T, J any](w http.ResponseWriter, key string, items []T, after string, id func(T) string, view func(T) J) {
	views := make([]J, 0, len(items))
	next := after
	for _, it := range items {
		views = append(views, view(it))
		next = id(it)
	}
	writeJSON(w, http.StatusOK, map[string]any{key: views, "next": next})
}
