package mcp

import "context"

func getPeopleTool(d *Deps) serverTool {
	return newTool(d, "get_people", "Get people",
		"List the people (other than the user) who speak in the user's conversations.",
		ScopePeopleRead, kindRead,
		func(ctx context.Context, c *call, _ struct{}) (any, error) {
			ps, err := c.deps.Store.Persons(ctx, c.userID)
			if err != nil {
				return nil, err
			}
			out := struct {
				People []Person `json:"people"`
			}{make([]Person, len(ps))}
			for i, p := range ps {
				out.People[i] = PersonJSON(p)
			}
			return out, nil
		})
}
