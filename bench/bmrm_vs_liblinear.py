#!/usr/bin/env python3
"""BMRM (spmv train) against LIBLINEAR on the same problem, in BMRM's scaling.

Usage: bmrm_vs_liblinear.py SPMV LOSS LAMBDA DATA OURS_MODEL LIBLINEAR_MODEL [TEST_DATA]

LIBLINEAR minimises 1/2 |w|^2 + C sum loss; with C = 1/(LAMBDA m) that is
LAMBDA/2 |w|^2 + (1/m) sum loss times C m. Its model file (trained without
bias, -s 3 hinge, -s 2 sqhinge, -s 0 logistic) is rewritten as a BMRM model
and both models are evaluated by `SPMV predict`, which prints each one's
objective on DATA and accuracy on TEST_DATA. Prints one JSON object.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def liblinear_as_bmrm_model(path, loss, lam):
    lines = open(path).read().split('\n')
    header = dict((line.split()[0], line.split()[1:]) for line in lines[:lines.index('w')])
    if float(header['bias'][0]) >= 0:
        sys.exit('the comparison needs a LIBLINEAR model without bias (-B -1)')
    weights = [line.split()[0] for line in lines[lines.index('w') + 1:] if line.strip()]
    first, second = (float(label) for label in header['label'])
    # LIBLINEAR predicts its first label where w.x > 0.
    sign = 1 if first > second else -1
    text = ('spmv-bmrm-model 1\nloss %s\nlambda %r\nbias_term 0\nbias 0\nlabel_negative %r\n'
            'label_positive %r\nfeatures %d\n' % (loss, lam, min(first, second), max(first, second),
                                                 len(weights)))
    text += ''.join('%r\n' % (sign * float(weight)) for weight in weights)
    return text


def evaluate(spmv, model, data):
    out = subprocess.run([spmv, 'predict', model, data], check=True, capture_output=True, text=True).stdout
    return (float(re.search(r'objective\s+(\S+)', out).group(1)),
            float(re.search(r'accuracy\s+(\S+)%', out).group(1)))


def main():
    spmv, loss, lam, data, ours, liblinear = sys.argv[1:7]
    test = sys.argv[7] if len(sys.argv) > 7 else None
    with tempfile.TemporaryDirectory() as scratch:
        converted = os.path.join(scratch, 'liblinear.model')
        open(converted, 'w').write(liblinear_as_bmrm_model(liblinear, loss, float(lam)))
        result = {'loss': loss, 'lambda': float(lam), 'data': data}
        for name, model in (('ours', ours), ('liblinear', converted)):
            result[name + '_objective'], result[name + '_training_accuracy'] = evaluate(spmv, model, data)
            if test:
                result[name + '_test_accuracy'] = evaluate(spmv, model, test)[1]
    result['relative_difference'] = (result['ours_objective'] - result['liblinear_objective']) / \
        result['liblinear_objective']
    print(json.dumps(result, indent=1))


if __name__ == '__main__':
    main()
