/* Tool transport (POST /mcp): being built (issue 4). Until then, 404. */
#include "http/http.h"

void
mcp_handle(struct app *app, struct http_req *req, struct http_resp *resp)
{
	struct err e;

	(void)app;
	err_clear(&e);
	err_set(&e, ERR_NOT_FOUND, NULL);
	http_error(resp, req, &e);
}
