#pragma once
// A value or an error message: how untrusted input (position strings, notation, client requests)
// is answered in core/ without exceptions.
#include <cassert>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace core {

struct Error {
    std::string message;
};

template <class T>
class Expected {
public:
    Expected(T value) : state_(std::in_place_index<0>, std::move(value)) {}
    // Whatever converts to T implicitly converts to a value (a record into an optional record,
    // std::nullopt), so `return record;` works as it would for T itself.
    template <class U>
    Expected(U&& value) requires(!std::is_same_v<std::remove_cvref_t<U>, T> &&
                                 !std::is_same_v<std::remove_cvref_t<U>, Expected> &&
                                 !std::is_same_v<std::remove_cvref_t<U>, Error> &&
                                 std::is_convertible_v<U&&, T>)
        : state_(std::in_place_index<0>, std::forward<U>(value)) {}
    Expected(Error error) : state_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & {
        assert(ok());
        return std::get<0>(state_);
    }
    const T& value() const& {
        assert(ok());
        return std::get<0>(state_);
    }
    // By value, so that `for (auto& x : read().value())` does not outlive the temporary.
    T value() && {
        assert(ok());
        return std::get<0>(std::move(state_));
    }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T operator*() && { return std::move(*this).value(); }

    const std::string& error() const {
        assert(!ok());
        return std::get<1>(state_).message;
    }

private:
    std::variant<T, Error> state_;
};

// Success without a value, or an error message.
using Status = Expected<std::monostate>;
inline Status ok_status() {
    return Status(std::monostate{});
}

inline Error make_error(std::string message) {
    return Error{std::move(message)};
}

}  // namespace core
