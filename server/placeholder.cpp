// Placeholder so the server library has a source until the server lands.
namespace server {
int placeholder() { return 0; }
}  // namespace server
