// Out-of-line parts of the Operator base (spmv/operator.hpp).
#include "spmv/operator.hpp"

#include "spmv/error.hpp"

namespace spmv {

template <class T>
void Operator<T>::throw_busy(const char* call) const {
  throw InvalidArgument(std::string(call) + ": the operator of kernel '" + describe().kernel +
                        "' is in use by another call; one operator serves one thread at a time "
                        "(plan one operator per thread)");
}

template class Operator<float>;
template class Operator<double>;

}  // namespace spmv
