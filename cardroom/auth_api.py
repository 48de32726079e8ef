"""The API's log-in: DRF's token view, reading JSON as every other view does."""

from rest_framework import parsers
from rest_framework.authtoken.views import ObtainAuthToken as DrfObtainAuthToken

from cardroom.parsers import JSONParser


# The one API view an anonymous client sends a body to: its JSON is read with the depth limit
# and the NUL check of cardroom.parsers (DRF's view names DRF's own parser). A comment, not a
# docstring: drf-spectacular would publish a docstring as the operation's description.
class ObtainAuthToken(DrfObtainAuthToken):
    parser_classes = [parsers.FormParser, parsers.MultiPartParser, JSONParser]


obtain_auth_token = ObtainAuthToken.as_view()
