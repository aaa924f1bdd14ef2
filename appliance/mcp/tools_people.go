package mcp

import (
	"context"

	"github.com/hearth-appliance/hearth/appliance/view"
)

func getPeopleTool(d *Deps) serverTool {
	return newTool(d, "get_people", "Get people",
		"List the people (other than the user) who speak in the user's conversations.",
		ScopePeopleRead, kindRead,
		func(ctx context.Context, c *call, _ struct{}) (any, error) {
			ps, err := c.deps.Records.People(ctx, c.userID)
			if err != nil {
				return nil, err
			}
			return struct {
				People []view.Person `json:"people"`
			}{ps}, nil
		})
}
