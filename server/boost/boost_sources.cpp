// Boost.Asio's and Boost.Beast's compiled parts, built once here (BOOST_ASIO_SEPARATE_COMPILATION
// and BOOST_BEAST_SEPARATE_COMPILATION, set by the chessence_boost_net library for everything that
// links it): every other file reads only their declarations, which cut a fifth of the compile
// time of a server file (server/CMakeLists.txt).
#include <boost/asio/impl/src.hpp>
#include <boost/beast/src.hpp>
