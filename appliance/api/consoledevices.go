package api

import (
	"net/http"
	"sort"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hearth-appliance/hearth/appliance"
)

// consoleDeviceRoutes serves the Devices page for the signed-in member:
// pairing a phone or wearable app by QR code (the API's own pairing, with
// a fresh developer key), the devices holding one of their developer keys
// with when each was last used, and the Firebase accounts bound to them
// (the app's own sign-in, bound with `hearth users bind-firebase`). Each is
// the member's own, so no owner guard: a member revokes only what is theirs.
func (s *Server) consoleDeviceRoutes(g *echo.Group) {
	g.POST("/devices/pair", s.pair)
	g.GET("/devices", s.consoleDevices)
	g.DELETE("/devices/keys/:id", s.deleteKey(appliance.KeyKindDev))
	g.DELETE("/devices/firebase/:uid", s.consoleUnbindFirebase)
}

type devicesJSON struct {
	Keys     []keyJSON      `json:"keys"`
	Firebase []firebaseJSON `json:"firebase"`
}

type firebaseJSON struct {
	UID       string    `json:"firebase_uid"`
	CreatedAt time.Time `json:"created_at"`
}

// GET /console/api/devices: the member's developer keys, most recently
// used first (a key never used last), and their Firebase bindings.
func (s *Server) consoleDevices(c echo.Context) error {
	ctx, uid := c.Request().Context(), userID(c)
	ks, err := s.store.Keys(ctx, uid)
	if err != nil {
		return err
	}
	out := devicesJSON{Keys: []keyJSON{}, Firebase: []firebaseJSON{}}
	var live []*appliance.Key
	for _, k := range ks {
		if k.Kind == appliance.KeyKindDev && k.RevokedAt == nil {
			live = append(live, k)
		}
	}
	sort.SliceStable(live, func(i, j int) bool { return lastActive(live[i]).After(lastActive(live[j])) })
	for _, k := range live {
		out.Keys = append(out.Keys, toKeyJSON(k))
	}
	accounts, err := s.store.FirebaseAccounts(ctx)
	if err != nil {
		return err
	}
	for _, a := range accounts {
		if a.UserID == uid {
			out.Firebase = append(out.Firebase, firebaseJSON{UID: a.UID, CreatedAt: a.CreatedAt})
		}
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, out)
}

// lastActive orders keys by their last use; a key never used counts from
// its creation, so a phone paired a minute ago sits above an old, idle one.
func lastActive(k *appliance.Key) time.Time {
	if k.LastUsedAt != nil {
		return *k.LastUsedAt
	}
	return k.CreatedAt
}

// DELETE /console/api/devices/firebase/:uid: unbinds one of the member's
// own Firebase accounts; another member's uid is not found.
func (s *Server) consoleUnbindFirebase(c echo.Context) error {
	if err := s.store.UnbindFirebase(c.Request().Context(), userID(c), c.Param("uid")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
